import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { deviceCodeReply, deviceSessionBody, sessionReply } from '@fray/protocol';
import { hashToken } from './auth.js';
import { accountsOf, newSession, sessionOpened, signedInAccount } from './account-common.js';
import { ApiError } from './errors.js';
import { accountErrors as errors, signedIn } from './http-common.js';
import type { ServerContext } from './context.js';
import { expectedOrigin } from './web-session.js';

/** A device code lives this long, and is good once. */
const DEVICE_CODE_MINUTES = 5;
/** Crockford's base 32: no I, L, O or U, so a code read aloud or typed is hard to get wrong. */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function normalizeCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}

/** A one-time code shown on a signed-in device, used on another. */
export function registerDeviceCodes(app: FastifyInstance, ctx: ServerContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/account/device-codes',
    {
      schema: {
        summary: `A one-time code (and its link, for a QR code) that signs this account in on another device; valid ${DEVICE_CODE_MINUTES} minutes`,
        security: signedIn,
        response: { 201: deviceCodeReply, ...errors },
      },
    },
    async (req, reply) => {
      const a = await signedInAccount(ctx, req);
      let code = '';
      for (let i = 0; i < 8; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
      const expiresAt = new Date(Date.now() + DEVICE_CODE_MINUTES * 60_000);
      await accountsOf(ctx).createDeviceCode({ codeHash: hashToken(code), accountId: a.accountId, expiresAt });
      req.log.info({}, 'device code created');
      const shown = `${code.slice(0, 4)}-${code.slice(4)}`;
      return reply
        .status(201)
        .send({ code: shown, expiresAt: expiresAt.toISOString(), url: `${expectedOrigin(req, ctx.cookies).origin}/gm/device#${shown}` });
    },
  );

  r.post(
    '/sessions/device',
    {
      schema: {
        summary: 'Sign in on this device with a one-time device code',
        body: deviceSessionBody,
        response: { 200: sessionReply, ...errors },
      },
    },
    async (req, reply) => {
      const accounts = accountsOf(ctx);
      const gate = ctx.passwords!;
      const addressKey = `ip:${req.ip}`;
      await gate.admit([addressKey]);
      const s = newSession(req, 'device');
      const out = await accounts.redeemDeviceCode(hashToken(normalizeCode(req.body.code)), s.row);
      if ('refused' in out) {
        await gate.failed(null, addressKey);
        if (out.refused === 'used')
          throw new ApiError('DEVICE_CODE_USED', 'This code was used already; show a new one on the signed-in device.');
        if (out.refused === 'expired')
          throw new ApiError('DEVICE_CODE_EXPIRED', `This code has expired (codes last ${DEVICE_CODE_MINUTES} minutes); show a new one.`);
        throw new ApiError('DEVICE_CODE_INVALID', 'No such code; check it, or show a new one on the signed-in device.');
      }
      req.log.info({ accountId: out.accountId, sessionId: s.row.id }, 'signed in (device code)');
      return sessionOpened(ctx, reply, out.accountId, s);
    },
  );
}
