/**
 * How long a grant may last, as the grant dialog offers it. The scopes it offers come from main
 * (ApprovalView.grantOptions, main/approvals/grant-options.ts): they must be read the way the
 * grant is checked, by the tool's own parser (issue 27 item 1).
 */
export const DURATIONS: { label: string; hours?: number }[] = [
  { label: 'For 1 hour', hours: 1 },
  { label: 'For 8 hours', hours: 8 },
  { label: 'For 24 hours', hours: 24 },
  { label: 'For 7 days', hours: 24 * 7 },
  { label: 'Until I revoke it' },
];
