extension DashboardPage {
    /// The page: empty containers with stable ids that the script fills from each snapshot
    /// (`lines`, `stations`, `in-flight`, `totals`, `recent-attempts`, `events`, `device-history`,
    /// `resume-form`), and nothing from the ledger: every ledger text is set by the script as text.
    static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>DFUKit station dashboard</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="/dashboard.css">
    <script src="/dashboard.js" defer></script>
    </head>
    <body data-snapshots="0">
    <header class="top">
      <h1>DFUKit station dashboard</h1>
      <dl class="meta">
        <div><dt>Ledger</dt><dd id="ledger">…</dd></div>
        <div><dt>Showing</dt><dd id="line-filter">every line</dd></div>
        <div><dt>Updated</dt><dd id="generated-at">waiting for the first snapshot</dd></div>
        <div><dt>Stream</dt><dd id="connection" data-state="connecting">connecting</dd></div>
      </dl>
      <p id="controls-note" class="note" hidden>The line controls are off: this dashboard was started without a token.
        Resume a line with <code>dfukit station resume</code> and release a device with <code>dfukit station release</code>,
        or restart the dashboard with <code>--token-file FILE</code>.</p>
      <p id="problem" class="problem" role="alert" hidden></p>
    </header>
    <main>
      <section class="panel" aria-labelledby="lines-title">
        <h2 id="lines-title">Lines</h2>
        <div id="lines" class="lines"><p class="empty">Waiting for the first snapshot.</p></div>
        <form id="resume-form" class="control-form" hidden>
          <h3>Resume line <span data-field="line"></span></h3>
          <p>The line's stations start new devices again; the halt rule then counts only attempts made after the resume.</p>
          <label>Operator <input name="operator" required maxlength="200" autocomplete="username"></label>
          <label>Reason <input name="reason" maxlength="1000"></label>
          <label data-token-field>Token <input name="token" type="password" autocomplete="off"></label>
          <p data-token-stored hidden>The token is kept for this tab. <button type="button" data-action="forget-token">Forget it</button></p>
          <div class="buttons">
            <button type="submit">Resume line</button>
            <button type="button" data-action="cancel">Close</button>
          </div>
          <output data-field="answer" role="status"></output>
        </form>
      </section>

      <section class="panel" aria-labelledby="totals-title">
        <h2 id="totals-title">Totals</h2>
        <div id="totals" class="totals"></div>
      </section>

      <section class="panel charts" aria-label="Charts">
        <figure><figcaption>Done and failed devices by hour</figcaption><div id="chart-hourly" class="chart"></div></figure>
        <figure><figcaption>Failed attempts by cause</figcaption><div id="chart-causes" class="chart"></div></figure>
        <figure><figcaption>Yield</figcaption><div id="chart-yield" class="chart"></div></figure>
      </section>

      <section class="panel" aria-labelledby="stations-title">
        <h2 id="stations-title">Stations</h2>
        <table id="stations">
          <thead><tr><th>Station</th><th>Host</th><th>Process</th><th>Line</th><th>State</th><th>Radios</th><th>Started</th><th>Last seen</th></tr></thead>
          <tbody></tbody>
        </table>
      </section>

      <section class="panel" aria-labelledby="in-flight-title">
        <h2 id="in-flight-title">Devices in flight</h2>
        <table id="in-flight">
          <thead><tr><th>Device</th><th>Station</th><th>Radio</th><th>Phase</th><th>Progress</th><th>Rate</th><th>RSSI</th><th>PHY</th><th>MTU</th><th>Attempt</th></tr></thead>
          <tbody></tbody>
        </table>
      </section>

      <section class="panel" aria-labelledby="recent-title">
        <h2 id="recent-title">Recent attempts</h2>
        <table id="recent-attempts">
          <thead><tr><th>Ended</th><th>Device</th><th>Attempt</th><th>Station</th><th>Radio</th><th>Line</th><th>Result</th><th>Error</th><th>Seconds</th><th>Bytes</th><th>Audited</th></tr></thead>
          <tbody></tbody>
        </table>
      </section>

      <section class="panel" aria-labelledby="events-title">
        <h2 id="events-title">Line events</h2>
        <table id="events">
          <thead><tr><th>When</th><th>What</th><th>Line</th><th>Device</th><th>Station</th><th>Operator</th><th>Reason</th><th>Rule</th></tr></thead>
          <tbody></tbody>
        </table>
      </section>

      <section id="device-history" class="panel history" aria-live="polite" hidden>
        <div class="history-head">
          <h2>Device <span data-field="device"></span></h2>
          <button type="button" data-action="close-history">Close</button>
        </div>
        <div data-field="content"></div>
        <form id="release-form" class="control-form" hidden>
          <h3>Release <span data-field="device"></span></h3>
          <p>The device is quarantined: no station claims it until it is released.</p>
          <label>Operator <input name="operator" required maxlength="200" autocomplete="username"></label>
          <label>Reason <input name="reason" maxlength="1000"></label>
          <label data-token-field>Token <input name="token" type="password" autocomplete="off"></label>
          <p data-token-stored hidden>The token is kept for this tab. <button type="button" data-action="forget-token">Forget it</button></p>
          <div class="buttons"><button type="submit">Release device</button></div>
          <output data-field="answer" role="status"></output>
        </form>
      </section>
    </main>
    <footer class="bottom">Served by <code>dfukit station serve</code> from the ledger; updated as stations record their work.</footer>
    </body>
    </html>
    """#
}
