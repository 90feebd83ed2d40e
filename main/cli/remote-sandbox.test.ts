import { describe, expect, it } from 'vitest';
import { sandboxFromFlags } from './remote-sandbox.js';

/** Issue 35: `remote add|update` sandbox flags → SandboxInput (only what is given). */
describe('sandbox flags', () => {
  it('makes paths absolute against the shell folder, keeps ~, and sets only what is given', () => {
    expect(sandboxFromFlags({}, '/w')).toBeUndefined();
    expect(sandboxFromFlags({ read: ['docs', '/abs', '~/x'], write: ['.'] }, '/w')).toEqual({
      read: ['/w/docs', '/abs', '~/x'],
      write: ['/w'],
    });
    expect(sandboxFromFlags({ 'no-files': true })).toEqual({ read: [], write: [] });
    expect(sandboxFromFlags({ network: 'none' })).toEqual({ network: 'none' });
    expect(sandboxFromFlags({ network: ' api.github.com, *.npmjs.org:443 ' })).toEqual({
      network: 'hosts',
      hosts: ['api.github.com', '*.npmjs.org:443'],
    });
    expect(sandboxFromFlags({ 'allow-unsandboxed': true })).toEqual({ allowUnsandboxed: true });
    expect(sandboxFromFlags({ 'require-sandbox': true })).toEqual({ allowUnsandboxed: false });
  });

  it('refuses contradictions with a message', () => {
    expect(() => sandboxFromFlags({ 'no-files': true, read: ['/x'] })).toThrow(/--no-files/);
    expect(() => sandboxFromFlags({ network: ',' })).toThrow(/--network/);
    expect(() => sandboxFromFlags({ 'allow-unsandboxed': true, 'require-sandbox': true })).toThrow(
      /not both/,
    );
  });
});
