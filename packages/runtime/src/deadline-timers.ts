import type { EncounterState, Viewer } from '@fray/engine';
import type { CommandAck, Deadlines } from '@fray/protocol';
import type { HostRuntime, SubmitInput } from './host-types.js';
import type { Logger } from './store.js';

/** What the timers need of their encounter. */
interface TimerHost {
  readonly state: EncounterState;
  /** the timeline branch: a deadline's command id names it after a rewind (the same version comes again on it) */
  readonly branch: number;
  readonly closed: boolean;
  readonly busy: boolean;
  readonly turnTimerSeconds: number | null;
  readonly logger: Logger;
  submit(input: SubmitInput, viewer: Viewer): Promise<CommandAck>;
  announceDeadlines(): void;
}

/**
 * An encounter's deadlines: the runtime's clock, never the engine's. A deadline that passes
 * submits a logged command as `system`, so replaying the log rebuilds the same state.
 */
export class DeadlineTimers {
  private reactionTimer: { windowId: string; at: number; handle: NodeJS.Timeout } | null = null;
  private turnTimer: { key: string; combatantId: string; at: number; handle: NodeJS.Timeout | null } | null = null;

  constructor(
    private readonly host: TimerHost,
    private readonly runtime: HostRuntime,
  ) {}

  forView(projection: EncounterState): Deadlines {
    const reaction =
      this.reactionTimer && projection.reaction ? { windowId: this.reactionTimer.windowId, at: this.reactionTimer.at } : null;
    const turn =
      this.turnTimer && this.turnTimer.handle && projection.combatants[this.turnTimer.combatantId] !== undefined
        ? { combatantId: this.turnTimer.combatantId, at: this.turnTimer.at }
        : null;
    return { reaction, turn };
  }
  evaluate(): void {
    if (this.host.closed) return;
    const s = this.host.state;
    const w = s.reaction;
    if (!w) {
      if (this.reactionTimer) clearTimeout(this.reactionTimer.handle);
      this.reactionTimer = null;
    } else if (!this.reactionTimer || this.reactionTimer.windowId !== w.id) {
      if (this.reactionTimer) clearTimeout(this.reactionTimer.handle);
      this.reactionTimer = null;
      const seconds = w.deadlineSeconds ?? this.runtime.options.reactionSeconds;
      if (seconds && seconds > 0) {
        const windowId = w.id;
        const handle = setTimeout(() => {
          this.host.logger.info({ windowId }, 'reaction window deadline passed; resolving');
          void this.host.submit(
            { commandId: this.deadlineId(`reaction:${windowId}`), command: { type: 'reaction.resolve' }, by: { role: 'system' } },
            { role: 'gm' },
          );
        }, seconds * 1000);
        handle.unref();
        this.reactionTimer = { windowId, at: this.runtime.now() + seconds * 1000, handle };
      }
    }

    const current = s.clock.current;
    const seconds = this.host.turnTimerSeconds;
    if (!seconds || s.status !== 'active' || !current) {
      this.clearTurn();
      return;
    }
    const key = `${s.clock.round}:${s.clock.phase ?? ''}:${current}`;
    if (this.turnTimer && this.turnTimer.key === key && this.turnTimer.handle) return;
    const retry = this.turnTimer?.key === key; // fired but the turn did not end (e.g. a reaction was pending)
    this.clearTurn();
    const ms = retry ? 2000 : seconds * 1000;
    const version = s.version;
    const handle = setTimeout(() => {
      if (this.turnTimer) this.turnTimer.handle = null;
      this.host.logger.info({ combatantId: current }, 'turn timer passed; ending the turn');
      void this.host
        .submit(
          {
            commandId: this.deadlineId(`turn:${version}:${current}`),
            command: { type: 'turn.end', combatantId: current },
            by: { role: 'system' },
          },
          { role: 'gm' },
        )
        .then((ack) => {
          if (!ack.ok) {
            this.host.logger.info({ code: ack.error.code }, 'turn timer could not end the turn yet');
            if (this.turnTimer?.key === key && !this.turnTimer.handle && !this.host.busy) {
              this.evaluate();
              this.host.announceDeadlines();
            }
          }
        });
    }, ms);
    handle.unref();
    this.turnTimer = { key, combatantId: current, at: this.runtime.now() + ms, handle };
  }
  private deadlineId(rest: string): string {
    return this.host.branch === 0 ? `deadline:${rest}` : `deadline:b${this.host.branch}:${rest}`;
  }
  clearTurn(): void {
    if (this.turnTimer?.handle) clearTimeout(this.turnTimer.handle);
    this.turnTimer = null;
  }

  /** Stop both timers. */
  close(): void {
    if (this.reactionTimer) clearTimeout(this.reactionTimer.handle);
    this.reactionTimer = null;
    this.clearTurn();
  }
}
