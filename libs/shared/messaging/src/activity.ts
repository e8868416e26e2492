import { Injectable } from '@nestjs/common';

/** Counts work in flight in this process (handlers, deliveries, jobs) so drain helpers know when it is idle. */
@Injectable()
export class MessagingActivity {
  private inFlight = 0;
  private waiters: (() => void)[] = [];

  async track<T>(work: () => Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await work();
    } finally {
      this.inFlight--;
      if (this.inFlight === 0) this.waiters.splice(0).forEach((w) => w());
    }
  }
  get busy(): boolean {
    return this.inFlight > 0;
  }
  idle(): Promise<void> {
    return this.inFlight === 0 ? Promise.resolve() : new Promise((r) => this.waiters.push(r));
  }
}
