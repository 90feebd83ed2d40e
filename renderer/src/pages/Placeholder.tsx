/** A page that is not built yet: says what it will hold and what to use meanwhile. */
export function Placeholder({ title, what, cli }: { title: string; what: string; cli?: string }) {
  return (
    <section className="page" aria-labelledby="placeholder-heading" data-testid="placeholder">
      <h1 id="placeholder-heading">{title}</h1>
      <div className="empty">
        <p>{what}</p>
        <p>
          This page is not in this build yet.
          {cli && (
            <>
              {' '}
              Meanwhile, use the command line: <code>{cli}</code>
            </>
          )}
        </p>
      </div>
    </section>
  );
}
