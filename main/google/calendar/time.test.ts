import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { eventTimes } from './event-input.js';
import { freeWindows } from './free-time.js';
import { endBefore, following, untilBefore } from './recurrence.js';
import { checkZone, humanRange, parseTime } from './time.js';

const NY = 'America/New_York';

describe('time zones and local times', () => {
  it('accepts IANA names (canonical case) and refuses anything else', () => {
    expect(checkZone('europe/berlin')).toBe('Europe/Berlin');
    expect(checkZone('UTC')).toBe('UTC');
    for (const bad of ['Mars/Olympus', '+05:00', 'GMT+5 ', 'Berlin', '']) {
      expect(() => checkZone(bad)).toThrow(/not an IANA time zone name/);
    }
  });

  it('reads a time without offset in the given zone, on both sides of a DST change', () => {
    const before = parseTime('2026-03-06T09:00', NY, 'start');
    const after = parseTime('2026-03-09T09:00', NY, 'start');
    expect(before.kind === 'instant' && before.at.toISO({ suppressMilliseconds: true })).toBe(
      '2026-03-06T09:00:00-05:00',
    );
    expect(after.kind === 'instant' && after.at.toISO({ suppressMilliseconds: true })).toBe(
      '2026-03-09T09:00:00-04:00',
    );
  });

  it('refuses a time that does not exist (DST gap) and reads an ambiguous one as its first occurrence (RFC 5545 §3.3.5)', () => {
    expect(() => parseTime('2026-03-08T02:30', NY, 'start')).toThrow(
      /does not exist in America\/New_York/,
    );
    const amb = parseTime('2026-11-01T01:30', NY, 'start');
    expect(amb.kind === 'instant' && amb.at.toISO({ suppressMilliseconds: true })).toBe(
      '2026-11-01T01:30:00-04:00',
    );
  });

  it('keeps an explicit offset, keeps dates as dates, and says what it accepts', () => {
    const t = parseTime('2026-03-10T09:00:00Z', 'Europe/Berlin', 'start');
    expect(t.kind === 'instant' && t.at.toISO({ suppressMilliseconds: true })).toBe(
      '2026-03-10T10:00:00+01:00',
    );
    expect(parseTime('2026-03-10', 'Pacific/Kiritimati', 'start')).toEqual({
      kind: 'date',
      date: '2026-03-10',
    });
    expect(() => parseTime('2026-02-30', NY, 'start')).toThrow(/not a valid date/);
    expect(() => parseTime('tomorrow 3pm', NY, 'start')).toThrow(
      /"2026-03-10T09:30" \(read in America\/New_York\)/,
    );
  });

  it('event times: all-day end is the inclusive last day; end must follow start; no mixing', () => {
    const allDay = eventTimes({ start: '2026-03-10', end: '2026-03-12' }, NY);
    expect(allDay.start).toEqual({ date: '2026-03-10' });
    expect(allDay.end).toEqual({ date: '2026-03-13' });
    expect(eventTimes({ start: '2026-03-10' }, NY, { allDayDays: 1 }).end).toEqual({
      date: '2026-03-11',
    });
    expect(() => eventTimes({ start: '2026-03-10T10:00', end: '2026-03-10T09:00' }, NY)).toThrow(
      /end \(2026-03-10T09:00:00-04:00\) must be after start/,
    );
    expect(() => eventTimes({ start: '2026-03-10T10:00', end: '2026-03-10T10:00' }, NY)).toThrow(
      /must be after start/,
    );
    expect(() => eventTimes({ start: '2026-03-12', end: '2026-03-10' }, NY)).toThrow(
      /must not be before start/,
    );
    expect(() => eventTimes({ start: '2026-03-10', end: '2026-03-10T10:00' }, NY)).toThrow(
      /end must be a date too/,
    );
    expect(() => eventTimes({ start: '2026-03-10T10:00' }, NY)).toThrow(
      /needs end or duration_minutes/,
    );
    const timed = eventTimes({ start: '2026-03-10T10:00', duration_minutes: 15 }, 'Europe/Berlin');
    expect(timed.start).toEqual({
      dateTime: '2026-03-10T10:00:00+01:00',
      timeZone: 'Europe/Berlin',
    });
    expect(timed.end).toEqual({ dateTime: '2026-03-10T10:15:00+01:00', timeZone: 'Europe/Berlin' });
  });

  it('human ranges never move an all-day date', () => {
    const now = DateTime.fromISO('2026-01-01T00:00:00Z');
    for (const zone of ['Pacific/Honolulu', 'Pacific/Kiritimati']) {
      expect(humanRange({ date: '2026-03-10' }, { date: '2026-03-11' }, zone, now)).toBe(
        'Tue 10 Mar (all day)',
      );
    }
    expect(
      humanRange(
        { dateTime: '2026-12-01T09:00:00Z' },
        { dateTime: '2026-12-01T09:15:00Z' },
        'Europe/Berlin',
        now,
      ),
    ).toBe('Tue 1 Dec 10:00–10:15');
  });
});

describe('free windows', () => {
  it('keeps working hours on the wall clock across a DST change and cuts out busy time', () => {
    const min = DateTime.fromISO('2026-03-06T00:00', { zone: NY });
    const max = DateTime.fromISO('2026-03-10T00:00', { zone: NY });
    const busy = [
      { start: Date.parse('2026-03-09T14:00:00Z'), end: Date.parse('2026-03-09T15:00:00Z') },
    ]; // 10:00–11:00 EDT
    const w = freeWindows(min, max, busy, {
      zone: NY,
      start: { hour: 9, minute: 0 },
      end: { hour: 12, minute: 0 },
      days: new Set([1, 2, 3, 4, 5]),
      minMs: 30 * 60_000,
      limit: 10,
    });
    const local = w.map(
      (i) =>
        `${DateTime.fromMillis(i.start, { zone: NY }).toFormat('ccc HH:mm ZZ')}–${DateTime.fromMillis(i.end, { zone: NY }).toFormat('HH:mm')}`,
    );
    expect(local).toEqual([
      'Fri 09:00 -05:00–12:00',
      'Mon 09:00 -04:00–10:00',
      'Mon 11:00 -04:00–12:00',
    ]);
  });
});

describe('series split rules', () => {
  it('UNTIL is UTC one second before a timed occurrence, the day before an all-day one (RFC 5545 §3.3.10)', () => {
    expect(untilBefore({ dateTime: '2026-03-17T09:00:00-04:00', timeZone: NY })).toBe(
      '20260317T125959Z',
    );
    expect(untilBefore({ date: '2026-03-17' })).toBe('20260316');
  });

  it('moves COUNT to the new series and keeps other lines', () => {
    const rules = [
      'RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=6',
      'EXDATE;TZID=America/New_York:20260324T090000',
    ];
    expect(endBefore(rules, { dateTime: '2026-03-17T13:00:00Z' })).toEqual([
      'RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20260317T125959Z',
      rules[1],
    ]);
    expect(following(rules, 2)).toEqual(['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=4', rules[1]]);
  });
});
