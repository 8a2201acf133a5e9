/**
 * Refused socket messages and commands since the process started, by error code (`refusals` in
 * `GET /metrics`): what a dashboard alerts on when bad input rises. Each refusal also writes its
 * own log line with its reason (sockets.ts), as the server's issue asks.
 */
export class RefusalCounter {
  readonly totals: Record<string, number> = {};

  count(code: string): void {
    this.totals[code] = (this.totals[code] ?? 0) + 1;
  }
}
