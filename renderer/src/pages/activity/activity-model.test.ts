import { describe, expect, it } from 'vitest';
import type { ActivityView } from '../../../../common/contract';
import { exportName, matches, mergeActivity, NO_FILTERS, toCsv, toJson } from './activity-model';

const row = (id: number, over: Partial<ActivityView> = {}): ActivityView => ({
  id,
  at: `2026-05-01T10:00:0${id}.000Z`,
  agent: 'claude',
  tool: 'gmail_send',
  decision: 'approved',
  outcome: 'ok',
  durationMs: 12,
  argsDigest: 'abc',
  ...over,
});

describe('activity export and filters', () => {
  it('writes RFC 4180 CSV: header, CRLF, quotes doubled, commas and newlines quoted', () => {
    const csv = toCsv([row(1, { detail: 'said "no", twice\nreally' })]);
    expect(csv).toBe(
      'id,at,agent,tool,decision,outcome,durationMs,waitMs,decisionKind,grantId,event,approvalId,argsDigest,detail\r\n' +
        '1,2026-05-01T10:00:01.000Z,claude,gmail_send,approved,ok,12,,,,,,abc,"said ""no"", twice\nreally"\r\n',
    );
  });

  it('defuses cells a spreadsheet would run as a formula', () => {
    const csv = toCsv([row(2, { tool: '=HYPERLINK("x")', detail: '-1+1' })]);
    expect(csv).toContain(`,"'=HYPERLINK(""x"")",`);
    expect(csv).toContain(`,'-1+1\r\n`);
    // Numbers are not text: a duration stays a number.
    expect(toCsv([row(3, { durationMs: 5 })])).toContain(',5,');
  });

  it('JSON round-trips the rows', () => {
    const rows = [row(1), row(2, { approvalId: 'ap1' })];
    expect(JSON.parse(toJson(rows))).toEqual(rows);
  });

  it('filters on every field given', () => {
    const r = row(1, { decision: 'denied', outcome: 'error' });
    expect(matches(r, NO_FILTERS)).toBe(true);
    expect(matches(r, { ...NO_FILTERS, decision: 'denied', agent: 'claude' })).toBe(true);
    expect(matches(r, { ...NO_FILTERS, outcome: 'ok' })).toBe(false);
    expect(matches(r, { ...NO_FILTERS, tool: 'other' })).toBe(false);
  });

  it('merges newest first without duplicates', () => {
    expect(mergeActivity([row(1), row(3)], [row(3), row(2)]).map((r) => r.id)).toEqual([3, 2, 1]);
  });

  it('names exports by time, safe for every file system', () => {
    expect(exportName('csv', new Date('2026-05-01T10:02:03Z'))).toBe(
      'airlock-activity-2026-05-01T10-02-03.csv',
    );
  });
});
