extension DashboardPage {
    /// The script's tables and cards: lines (with the halt banner), totals, stations, devices in
    /// flight, recent attempts and line events. Rows carry `data-device`, `data-station`,
    /// `data-line`; lines and stations `data-state`; each total counter `data-total`.
    static let scriptTables = #"""
    function emptyRow(table, columns, message) {
      return h('tr', { className: 'empty' }, [h('td', { className: 'empty', colSpan: columns, text: message })]);
    }

    function fillTable(id, rows, columns, emptyMessage) {
      const body = byId(id).tBodies[0];
      body.replaceChildren(...(rows.length ? rows : [emptyRow(id, columns, emptyMessage)]));
    }

    function cell(value, className) {
      return h('td', { className: className, text: dash(value) });
    }

    function deviceCell(address) {
      return h('td', { className: 'device' }, [
        h('button', { type: 'button', className: 'device-link', text: dash(address), title: 'Open the history of ' + text(address) }),
      ]);
    }

    function renderLines(snapshot) {
      const container = byId('lines');
      const enabled = Boolean(snapshot.controls && snapshot.controls.enabled);
      const lines = list(snapshot.lines);
      if (!lines.length) {
        container.replaceChildren(h('p', { className: 'empty', text: 'No line has recorded anything yet.' }));
        return;
      }
      container.replaceChildren(...lines.map((line) => lineCard(line, enabled)));
    }

    function lineCard(line, controlsEnabled) {
      const link = h('a', { href: '?line=' + encodeURIComponent(text(line.name)), text: dash(line.name),
        title: 'Show only this line' });
      const card = h('article', { className: 'line', dataset: { line: text(line.name), state: text(line.state) } }, [
        h('h3', {}, [link, ' ', badge(line.state)]),
      ]);
      if (line.state === 'halted') {
        const halt = line.halt || {};
        const resume = h('button', { type: 'button', className: 'primary', text: 'Resume line',
          dataset: { action: 'resume', target: text(line.name) }, disabled: !controlsEnabled,
          title: controlsEnabled ? 'Record a resume in the ledger' : 'The controls are off: the dashboard has no token' });
        card.append(h('div', { className: 'halt-banner', attributes: { role: 'alert' } }, [
          h('p', { className: 'halt-title',
            text: 'Line ' + text(line.name) + ' is halted: its stations start no new device until it is resumed.' }),
          h('dl', {}, [
            h('dt', { text: 'Rule' }), h('dd', { className: 'halt-rule', text: dash(halt.rule) }),
            h('dt', { text: 'Reason' }), h('dd', { className: 'halt-reason', text: dash(halt.reason) }),
            h('dt', { text: 'Since' }), h('dd', { text: formatDateTime(halt.at) }),
            h('dt', { text: 'Seen by' }), h('dd', { text: dash(halt.station) }),
          ]),
          list(halt.attempts).length ? h('p', { text: 'The attempts that tripped it:' }) : null,
          h('ul', { className: 'halt-attempts' }, list(halt.attempts).map((attempt) => h('li', { text: text(attempt) }))),
          resume,
        ]));
      }
      return card;
    }

    function renderTotals(snapshot) {
      const totals = snapshot.totals || {};
      const counters = [['devices', 'Devices'], ['done', 'Done'], ['failed', 'Failed'], ['inFlight', 'In flight'],
        ['quarantined', 'Quarantined'], ['attempts', 'Attempts']];
      const metrics = [['yield', 'Yield', formatPercent(totals.yield)],
        ['firstPassYield', 'First-pass yield', formatPercent(totals.firstPassYield)],
        ['devicesPerHour', 'Devices / hour', Number.isFinite(totals.devicesPerHour) ? totals.devicesPerHour.toFixed(1) : 'n/a']];
      byId('totals').replaceChildren(
        ...counters.map(([key, label]) => h('div', { className: 'counter', dataset: { counter: key } }, [
          h('span', { className: 'counter-value', dataset: { total: key }, text: String(integer(totals[key])) }),
          h('span', { className: 'counter-label', text: label }),
        ])),
        ...metrics.map(([key, label, value]) => h('div', { className: 'metric', dataset: { metric: key } }, [
          h('span', { className: 'metric-value', text: value }),
          h('span', { className: 'metric-label', text: label }),
        ])));
    }

    function renderStations(snapshot) {
      const rows = list(snapshot.stations).map((station) => h('tr', {
        dataset: { station: text(station.name), state: text(station.state), line: station.line },
      }, [
        cell(station.name), cell(station.host), cell(station.pid, 'number'), cell(station.line),
        h('td', {}, [badge(station.state)]),
        h('td', { className: 'wrap', text: list(station.radios).map((radio) =>
          text(radio.name) + ' (' + integer(radio.inFlight) + ' in flight)').join(', ') || '—' }),
        cell(formatTime(station.startedAt)),
        cell(formatTime(station.seenAt) + ' ' + formatAgo(station.seenAt, snapshot.generatedAt)),
      ]));
      fillTable('stations', rows, 8, 'No station has announced itself.');
    }

    function renderInFlight(snapshot) {
      const rows = list(snapshot.inFlight).map((device) => {
        const total = Number.isFinite(device.total) && device.total > 0 ? device.total : null;
        const done = Number.isFinite(device.done) ? device.done : 0;
        const bar = h('progress', { max: total || 1, value: total ? Math.min(done, total) : 0 });
        const label = total ? formatBytes(done) + ' of ' + formatBytes(total) + ' (' + Math.floor(done * 100 / total) + ' %)'
          : formatBytes(done);
        return h('tr', { dataset: { device: text(device.device), station: text(device.station), line: device.line } }, [
          deviceCell(device.device), cell(device.station), cell(device.radio), cell(device.phase),
          h('td', { className: 'progress' }, [bar, h('span', { className: 'progress-label', text: label })]),
          cell(formatRate(device.bytesPerSecond), 'number'),
          cell(Number.isFinite(device.rssi) ? device.rssi + ' dBm' : null, 'number'),
          cell(device.phy), cell(device.mtu, 'number'), cell(device.attempt, 'number'),
        ]);
      });
      fillTable('in-flight', rows, 10, 'No device is being flashed.');
    }

    function renderRecentAttempts(snapshot) {
      const rows = list(snapshot.recentAttempts).map((attempt) => {
        const error = [attempt.errorKind, attempt.errorMessage].filter(Boolean).join(': ');
        return h('tr', {
          className: attempt.result === 'failed' ? 'failed' : undefined,
          dataset: { device: text(attempt.device), station: attempt.station, line: attempt.line, result: text(attempt.result) },
        }, [
          cell(formatTime(attempt.endedAt)), deviceCell(attempt.device), cell(attempt.attempt, 'number'),
          cell(attempt.station), cell(attempt.radio), cell(attempt.line), cell(attempt.result, 'result'),
          cell(error, 'wrap'), cell(formatSeconds(attempt.seconds), 'number'), cell(formatBytes(attempt.bytes), 'number'),
          cell(attempt.audited ? 'yes' : 'no'),
        ]);
      });
      fillTable('recent-attempts', rows, 11, 'No attempt recorded yet.');
    }

    function renderEvents(snapshot) {
      const rows = list(snapshot.events).map((event) => h('tr', {
        className: 'event-' + text(event.kind),
        dataset: { kind: text(event.kind), line: event.line, device: event.device, station: event.station },
      }, [
        cell(formatDateTime(event.at)), cell(event.kind), cell(event.line),
        event.device ? deviceCell(event.device) : cell(null), cell(event.station), cell(event.operator),
        cell(event.reason, 'wrap'), cell(event.rule),
      ]));
      fillTable('events', rows, 8, 'No line event yet.');
    }
    """#
}
