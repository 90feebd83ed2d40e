import { describe, expect, it } from 'vitest';
import { constraintOptions } from './grant-options';

describe('constraintOptions', () => {
  it('offers a recipient domain when every address shares it, and exact values for short text', () => {
    const opts = constraintOptions({
      to: ['ann@mycorp.com', 'Bob <bob@MyCorp.com>'],
      calendar_id: 'team@group.calendar.google.com',
      body: 'line 1\nline 2',
    });
    expect(opts.map((o) => o.constraint)).toEqual([
      { path: 'to', op: 'domain', value: 'mycorp.com' },
      { path: 'calendar_id', op: 'domain', value: 'group.calendar.google.com' },
      { path: 'calendar_id', op: 'equals', value: 'team@group.calendar.google.com' },
    ]);
  });

  it('offers no domain when recipients are in different domains', () => {
    expect(constraintOptions({ to: 'a@x.com, b@y.com' }).map((o) => o.constraint.op)).toEqual([
      'equals',
    ]);
  });
});
