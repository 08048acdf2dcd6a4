extension DashboardPage {
    /// The page's style: system fonts, light and dark schemes, tables that scroll on a narrow screen.
    static let css = #"""
    :root {
      color-scheme: light dark;
      --text: #1d2329; --muted: #5b6670; --back: #f4f6f8; --panel: #ffffff; --line: #d5dbe1;
      --ok: #1b7f3b; --bad: #c0322b; --warn: #b36b00; --info: #2261a8; --track: #e4e8ec;
      --bad-back: #fdecea; --warn-back: #fff4e0;
    }
    @media (prefers-color-scheme: dark) {
      :root {
        --text: #e3e7eb; --muted: #9aa5b0; --back: #14181c; --panel: #1c2227; --line: #333d46;
        --ok: #4cc174; --bad: #ff6b61; --warn: #f0a640; --info: #6ea8ff; --track: #2a333b;
        --bad-back: #3a1d1b; --warn-back: #3a2c14;
      }
    }
    * { box-sizing: border-box; }
    [hidden] { display: none !important; }
    body {
      margin: 0; background: var(--back); color: var(--text);
      font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif;
    }
    code, .mono, td.device, .device-link, pre { font-family: ui-monospace, "DejaVu Sans Mono", "Liberation Mono", monospace; }
    header.top { padding: 12px 20px; background: var(--panel); border-bottom: 1px solid var(--line); }
    h1 { font-size: 20px; margin: 0 0 6px; }
    h2 { font-size: 16px; margin: 0 0 10px; }
    h3 { font-size: 15px; margin: 0 0 6px; }
    dl.meta { display: flex; flex-wrap: wrap; gap: 4px 24px; margin: 0; }
    dl.meta div { display: flex; gap: 6px; }
    dl.meta dt { color: var(--muted); }
    dl.meta dd { margin: 0; overflow-wrap: anywhere; }
    #connection[data-state="live"] { color: var(--ok); }
    #connection[data-state="reconnecting"], #connection[data-state="closed"] { color: var(--bad); }
    .note { margin: 8px 0 0; padding: 6px 10px; background: var(--warn-back); border-left: 4px solid var(--warn); }
    .problem { margin: 8px 0 0; padding: 6px 10px; background: var(--bad-back); border-left: 4px solid var(--bad); }
    main { padding: 16px 20px; display: grid; gap: 16px; grid-template-columns: minmax(0, 1fr); }
    .panel { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 12px 14px; overflow-x: auto; }
    .empty { color: var(--muted); margin: 4px 0; }
    .lines { display: flex; flex-wrap: wrap; gap: 10px; }
    .line { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; min-width: 220px; flex: 1 1 280px; }
    .line[data-state="halted"] { border-color: var(--bad); flex-basis: 100%; }
    .line h3 a { color: inherit; }
    .badge { display: inline-block; padding: 0 8px; border-radius: 10px; font-size: 12px; background: var(--track); }
    .badge[data-state="running"], .badge[data-state="succeeded"], .badge[data-state="done"] { background: var(--ok); color: #fff; }
    .badge[data-state="halted"], .badge[data-state="failed"], .badge[data-state="gone"] { background: var(--bad); color: #fff; }
    .badge[data-state="ended"], .badge[data-state="skipped"] { background: var(--muted); color: #fff; }
    .halt-banner { margin-top: 6px; padding: 8px 12px; background: var(--bad-back); border-left: 4px solid var(--bad); }
    .halt-banner .halt-title { font-weight: 600; margin: 0 0 6px; }
    .halt-banner dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0 0 6px; }
    .halt-banner dt { color: var(--muted); }
    .halt-banner dd { margin: 0; overflow-wrap: anywhere; }
    .halt-attempts { margin: 0 0 8px; padding-left: 20px; font-family: ui-monospace, "DejaVu Sans Mono", monospace; }
    .control-form { margin-top: 12px; padding: 10px 12px; border: 1px solid var(--line); border-radius: 6px; max-width: 560px; }
    .control-form label { display: grid; grid-template-columns: 90px 1fr; align-items: center; gap: 8px; margin: 6px 0; }
    .control-form input { font: inherit; padding: 4px 6px; border: 1px solid var(--line); border-radius: 4px;
      background: var(--back); color: var(--text); }
    .control-form output { display: block; margin-top: 6px; min-height: 1.4em; }
    .control-form output[data-outcome="recorded"] { color: var(--ok); }
    .control-form output[data-outcome="refused"] { color: var(--bad); }
    .buttons { display: flex; gap: 8px; margin-top: 8px; }
    button { font: inherit; padding: 4px 12px; border: 1px solid var(--line); border-radius: 4px; background: var(--back);
      color: var(--text); cursor: pointer; }
    button:disabled { cursor: not-allowed; opacity: 0.6; }
    button.primary { background: var(--info); border-color: var(--info); color: #fff; }
    .totals { display: flex; flex-wrap: wrap; gap: 10px; }
    .counter, .metric { min-width: 110px; padding: 6px 10px; border: 1px solid var(--line); border-radius: 6px; }
    .counter-value, .metric-value { display: block; font-size: 22px; font-weight: 600; }
    .counter-label, .metric-label { color: var(--muted); font-size: 12px; }
    .counter[data-counter="failed"] .counter-value, .counter[data-counter="quarantined"] .counter-value { color: var(--bad); }
    .counter[data-counter="done"] .counter-value { color: var(--ok); }
    .charts { display: flex; flex-wrap: wrap; gap: 16px; }
    .charts figure { margin: 0; flex: 1 1 300px; min-width: 0; }
    .charts figcaption { color: var(--muted); margin-bottom: 4px; }
    .chart svg { width: 100%; height: auto; max-height: 240px; display: block; }
    .chart text { fill: var(--muted); font-size: 11px; }
    .chart .axis { stroke: var(--line); }
    .chart .bar-done { fill: var(--ok); }
    .chart .bar-failed, .chart .bar-cause { fill: var(--bad); }
    .chart .bar-track { fill: var(--track); }
    .chart .bar-yield { fill: var(--info); }
    .chart .value { fill: var(--text); }
    table { border-collapse: collapse; width: 100%; }
    th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); white-space: nowrap; }
    td.wrap { white-space: normal; overflow-wrap: anywhere; min-width: 200px; }
    th { color: var(--muted); font-weight: 600; font-size: 12px; }
    td.number { text-align: right; font-variant-numeric: tabular-nums; }
    tbody tr:nth-child(even) { background: color-mix(in srgb, var(--track) 35%, transparent); }
    tr[data-device] { cursor: pointer; }
    tr[data-device]:hover { outline: 1px solid var(--info); }
    tr.failed td { background: var(--bad-back); }
    tr.failed td.result { color: var(--bad); font-weight: 600; }
    .device-link { background: none; border: none; padding: 0; color: var(--info); text-decoration: underline; }
    progress { width: 120px; vertical-align: middle; }
    .progress-label { margin-left: 6px; font-size: 12px; color: var(--muted); }
    .history-head { display: flex; justify-content: space-between; align-items: center; }
    .history .attempt { border-top: 1px solid var(--line); padding: 8px 0; }
    .history .attempt.failed h3 { color: var(--bad); }
    .history dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 4px 0; }
    .history dt { color: var(--muted); }
    .history dd { margin: 0; overflow-wrap: anywhere; }
    pre.audit { max-height: 360px; overflow: auto; padding: 8px; background: var(--back); border: 1px solid var(--line);
      border-radius: 4px; font-size: 12px; }
    footer.bottom { padding: 8px 20px 20px; color: var(--muted); font-size: 12px; }
    """#
}
