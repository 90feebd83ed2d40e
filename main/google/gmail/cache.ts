/**
 * What Airlock last saw of messages (subject, sender, thread), kept so an
 * approval can show a reply's real "Re:" subject and what a trash or label
 * change touches — describeEffect is synchronous and cannot ask Gmail.
 */
export interface SeenMessage {
  subject: string;
  from: string;
  threadId: string;
}

/** A small per-account memory, least recently written dropped first. */
export class Recent<T> {
  private readonly map = new Map<string, T>();

  constructor(private readonly max = 2000) {}

  remember(account: string, id: string, m: T): void {
    const key = `${account}\n${id}`;
    this.map.delete(key);
    this.map.set(key, m);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }

  get(account: string, id: string): T | undefined {
    return this.map.get(`${account}\n${id}`);
  }

  forget(account: string, id: string): void {
    this.map.delete(`${account}\n${id}`);
  }
}

export class SeenMessages extends Recent<SeenMessage> {}
