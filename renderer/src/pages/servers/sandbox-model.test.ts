import { describe, expect, it } from 'vitest';
import type { SandboxView } from '../../../../common/contract';
import {
  NEW_SANDBOX,
  sandboxBadge,
  sandboxFacts,
  sandboxFrom,
  sandboxState,
} from './sandbox-model';

const view: SandboxView = {
  read: ['/home/u/docs'],
  write: ['/home/u/project'],
  network: 'hosts',
  hosts: ['api.github.com'],
  allowUnsandboxed: false,
  enforcement: 'bubblewrap',
  status: 'sandboxed',
  note: '',
  runtime: [],
  notGranted: ['/home/u/photos'],
  refusedHosts: ['example.com:443'],
};

describe('sandbox form (issue 35)', () => {
  it('an untouched add form sends nothing (Airlock applies its defaults)', () => {
    expect(sandboxFrom(NEW_SANDBOX)).toEqual({ ok: true });
  });

  it('round-trips a view; one path or host per line, blanks dropped; hosts only for a host list', () => {
    const f = sandboxState(view);
    expect(sandboxFrom({ ...f, read: ' /a \n\n/b ' })).toEqual({
      ok: true,
      sandbox: {
        read: ['/a', '/b'],
        write: ['/home/u/project'],
        network: 'hosts',
        hosts: ['api.github.com'],
        allowUnsandboxed: false,
      },
    });
    expect(sandboxFrom({ ...f, network: 'none' })).toMatchObject({ sandbox: { network: 'none' } });
    expect(sandboxFrom({ ...f, network: 'none' })).not.toHaveProperty('sandbox.hosts');
    expect(sandboxFrom({ ...f, hosts: ' ' })).toEqual({
      ok: false,
      error: expect.stringMatching(/at least one host/),
    });
  });

  it('says plainly what it may reach and what was refused', () => {
    expect(sandboxBadge(view)).toBe('Sandboxed');
    expect(sandboxBadge({ ...view, status: 'blocked', enforcement: 'none' })).toMatch(
      /Not started/,
    );
    expect(sandboxBadge({ ...view, status: 'unsandboxed', enforcement: 'none' })).toMatch(
      /Unsandboxed/,
    );
    expect(sandboxFacts(view)).toEqual([
      { label: 'Folders', value: '/home/u/project (read-write); /home/u/docs (read-only)' },
      { label: 'Network', value: "only api.github.com (through Airlock's proxy)" },
      { label: 'Asked for, not granted', value: '/home/u/photos' },
      { label: 'Tried to reach, refused', value: 'example.com:443' },
    ]);
  });
});
