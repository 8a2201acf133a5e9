import type { Logger } from '@fray/runtime';

/** How a refusal is logged when it is the first of its code in the socket's window. */
export type RefusalLevel = 'warn' | 'info';

/**
 * Refused socket messages and commands: every one is counted by code (`GET /metrics`), and logged
 * so that a flood of bad input cannot become a flood of log lines. Per socket and per code, the
 * first refusal in a window (10 s) is logged at its level (`warn` for a refused message, `info` for
 * a command the rules refused) with its reason; the others in that window go to `debug`, and one
 * line at the same level says how many were left out when the socket's next refusal opens a new
 * window, or when it disconnects.
 *
 * Before, each refusal wrote its own line: under 5 % bad input at 200 × 4 the synchronous log
 * writes were the largest part of a bad message's cost (docs/performance.md, Session 7).
 */
export class RefusalCounter {
  /** refusals since the process started, by error code */
  readonly totals: Record<string, number> = {};

  constructor(
    readonly windowMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The log of one socket (its own window). */
  forSocket(log: Logger): SocketRefusals {
    return new SocketRefusals(this, log);
  }

  count(code: string): void {
    this.totals[code] = (this.totals[code] ?? 0) + 1;
  }

  time(): number {
    return this.now();
  }
}

export class SocketRefusals {
  private windowStart = -Infinity;
  /** codes seen in the current window → how many of them were logged at debug only */
  private readonly seen = new Map<string, { level: RefusalLevel; msg: string; leftOut: number }>();

  constructor(
    private readonly counter: RefusalCounter,
    private readonly log: Logger,
  ) {}

  /** Count one refusal and log it (or leave it to the window's summary). */
  note(level: RefusalLevel, code: string, fields: Record<string, unknown>, msg: string): void {
    this.counter.count(code);
    const now = this.counter.time();
    if (now - this.windowStart >= this.counter.windowMs) {
      this.flush();
      this.windowStart = now;
    }
    const s = this.seen.get(code);
    if (!s) {
      this.seen.set(code, { level, msg, leftOut: 0 });
      this.log[level]({ code, ...fields }, msg);
      return;
    }
    s.leftOut += 1;
    this.log.debug({ code, ...fields }, msg);
  }

  /** One line per code with refusals that were logged at debug only; the window starts over. */
  flush(): void {
    for (const [code, s] of this.seen) {
      if (s.leftOut > 0) this.log[s.level]({ code, leftOut: s.leftOut, windowSeconds: this.counter.windowMs / 1000 }, `${s.msg}: ${s.leftOut} more in the window (logged at debug)`);
    }
    this.seen.clear();
  }
}
