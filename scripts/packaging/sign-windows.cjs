// electron-builder Windows signing hook (electron-builder.yml `win.signtoolOptions.sign`).
//
// Signing keys never live in this repository. A release machine sets
//   AIRLOCK_WIN_SIGN_COMMAND   a command that signs the file named by $AIRLOCK_SIGN_FILE in place,
//                              e.g. the CLI of a cloud HSM or EV-token vendor
//                              (AzureSignTool, jsign, smctl, signtool with a hardware token)
// plus whatever credentials that command reads from its own environment. The file path is passed
// in the environment, never spliced into the command text. Without AIRLOCK_WIN_SIGN_COMMAND the
// build is left unsigned and says so (a local or CI test build).
//
// Called once per hash algorithm; Airlock signs with SHA-256 only (SHA-1 signatures are not
// trusted by current Windows).
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS hook: electron-builder require()s it */
const { execSync } = require('node:child_process');

function signCommandFrom(env) {
  const command = (env.AIRLOCK_WIN_SIGN_COMMAND || '').trim();
  return command || null;
}

async function sign(configuration) {
  if (configuration.hash && configuration.hash !== 'sha256') return;
  const command = signCommandFrom(process.env);
  if (!command) {
    console.log(`  • Windows signing skipped (no AIRLOCK_WIN_SIGN_COMMAND): ${configuration.path}`);
    return;
  }
  execSync(command, {
    stdio: 'inherit',
    env: { ...process.env, AIRLOCK_SIGN_FILE: configuration.path },
  });
}

module.exports = sign;
module.exports.default = sign;
module.exports.signCommandFrom = signCommandFrom;
