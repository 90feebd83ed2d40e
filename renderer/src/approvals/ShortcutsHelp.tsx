import { MOD_KEY } from './keys';

/** The keyboard shortcuts, documented where they are used. */
export function ShortcutsHelp() {
  return (
    <details className="shortcuts" data-testid="shortcuts-help">
      <summary>Keyboard shortcuts</summary>
      <p>
        With a request focused (Tab to it, or open it from its notification). No single key decides,
        held keys are ignored, and a request that just appeared can be decided only once it has been
        on screen for a moment.
      </p>
      <dl>
        <dt>
          <kbd>{MOD_KEY}</kbd> + <kbd>Enter</kbd>
        </dt>
        <dd>Allow once</dd>
        <dt>
          <kbd>Shift</kbd> + <kbd>A</kbd>
        </dt>
        <dd>Always allow… (choose for how long and which calls, then confirm)</dd>
        <dt>
          <kbd>E</kbd>
        </dt>
        <dd>Edit the arguments, then allow</dd>
        <dt>
          <kbd>D</kbd>
        </dt>
        <dd>Deny (type an optional reason, then Enter)</dd>
        <dt>
          <kbd>↓</kbd> / <kbd>J</kbd>, <kbd>↑</kbd> / <kbd>K</kbd>
        </dt>
        <dd>Next / previous request</dd>
        <dt>
          <kbd>Esc</kbd>
        </dt>
        <dd>Close the deny or edit form</dd>
      </dl>
    </details>
  );
}
