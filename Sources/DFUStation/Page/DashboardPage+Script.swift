extension DashboardPage {
    /// The script's core: helpers that build elements (ledger text only ever as text), formatting,
    /// the `/events` connection and the drawing of each snapshot. After drawing one it sets
    /// `document.body.dataset.snapshots` (how many were drawn) and `data-generated-at`.
    static let scriptCore = #"""
    'use strict';
    // DFUKit station dashboard: draws every snapshot of /events. Ledger text (device names, error
    // messages, reasons) is only ever set as text (textContent, text nodes), never parsed as HTML.
    const dashboard = {
      snapshots: 0,
      last: null,
      line: new URLSearchParams(window.location.search).get('line') || null,
      tokenKey: 'dfukit.dashboard.token',
      operatorKey: 'dfukit.dashboard.operator',
    };

    // An element: options.text is its text, options.dataset its data- attributes, options.className
    // its class, options.attributes plain attributes; other options are set as properties.
    function h(tag, options, children) {
      return fill(document.createElement(tag), options, children);
    }

    // An SVG element, with options as h() takes them.
    function svg(tag, options, children) {
      return fill(document.createElementNS('http://www.w3.org/2000/svg', tag), options, children);
    }

    function fill(element, options, children) {
      for (const [key, value] of Object.entries(options || {})) {
        if (value === undefined || value === null) continue;
        if (key === 'text') {
          element.textContent = String(value);
        } else if (key === 'className') {
          element.setAttribute('class', value);
        } else if (key === 'dataset') {
          for (const [name, data] of Object.entries(value)) {
            if (data !== undefined && data !== null) element.dataset[name] = String(data);
          }
        } else if (key === 'attributes') {
          for (const [name, data] of Object.entries(value)) {
            if (data !== undefined && data !== null) element.setAttribute(name, String(data));
          }
        } else {
          element[key] = value;
        }
      }
      for (const child of children || []) {
        if (child === undefined || child === null || child === false) continue;
        element.append(typeof child === 'string' ? document.createTextNode(child) : child);
      }
      return element;
    }

    function byId(id) { return document.getElementById(id); }
    function text(value) { return value === undefined || value === null ? '' : String(value); }
    function list(value) { return Array.isArray(value) ? value : []; }
    function integer(value) { return Number.isFinite(value) ? Math.round(value) : 0; }
    function dash(value) { return value === undefined || value === null || value === '' ? '—' : String(value); }

    function formatTime(iso) {
      if (!iso) return '—';
      const date = new Date(iso);
      if (Number.isNaN(date.getTime())) return String(iso);
      return date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
    }

    function formatDateTime(iso) {
      if (!iso) return '—';
      const date = new Date(iso);
      if (Number.isNaN(date.getTime())) return String(iso);
      return date.toLocaleString([], { dateStyle: 'short', timeStyle: 'medium' });
    }

    // "12 s ago" from the snapshot's own clock, so a browser with a wrong clock still reads right.
    function formatAgo(iso, nowIso) {
      const then = new Date(iso).getTime();
      const now = new Date(nowIso).getTime();
      if (!Number.isFinite(then) || !Number.isFinite(now)) return '';
      const seconds = Math.max(0, Math.round((now - then) / 1000));
      if (seconds < 90) return seconds + ' s ago';
      if (seconds < 5400) return Math.round(seconds / 60) + ' min ago';
      return Math.round(seconds / 3600) + ' h ago';
    }

    function formatBytes(value) {
      if (!Number.isFinite(value)) return '—';
      if (value < 1000) return value + ' B';
      if (value < 1e6) return (value / 1e3).toFixed(1) + ' kB';
      return (value / 1e6).toFixed(2) + ' MB';
    }

    function formatRate(bytesPerSecond) {
      return Number.isFinite(bytesPerSecond) ? formatBytes(Math.round(bytesPerSecond)) + '/s' : '—';
    }

    function formatPercent(fraction) {
      return Number.isFinite(fraction) ? (fraction * 100).toFixed(1) + ' %' : 'n/a';
    }

    function formatSeconds(seconds) {
      return Number.isFinite(seconds) ? seconds.toFixed(1) + ' s' : '—';
    }

    function badge(state) {
      return h('span', { className: 'badge', text: dash(state), dataset: { state: text(state) } });
    }

    function setConnection(state, label) {
      const element = byId('connection');
      element.dataset.state = state;
      element.textContent = label || state;
    }

    function showProblem(message) {
      const element = byId('problem');
      element.hidden = !message;
      element.textContent = message || '';
    }

    function connect() {
      const url = '/events' + (dashboard.line ? '?line=' + encodeURIComponent(dashboard.line) : '');
      const source = new EventSource(url);
      setConnection('connecting');
      source.addEventListener('open', () => setConnection('live'));
      source.addEventListener('error', () => {
        setConnection(source.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting',
          source.readyState === EventSource.CLOSED ? 'closed: reload the page' : 'reconnecting…');
      });
      source.addEventListener('snapshot', (event) => {
        let snapshot;
        try {
          snapshot = JSON.parse(event.data);
        } catch (error) {
          showProblem('The server sent a snapshot that is not JSON: ' + error.message);
          return;
        }
        dashboard.snapshots += 1;
        dashboard.last = snapshot;
        showProblem(null);
        render(snapshot);
        document.body.dataset.snapshots = String(dashboard.snapshots);
        document.body.dataset.generatedAt = text(snapshot.generatedAt);
      });
      source.addEventListener('unavailable', (event) => {
        let message = event.data;
        try { message = JSON.parse(event.data).error; } catch (ignored) { /* shown as sent */ }
        showProblem('No fresh data: ' + message + (dashboard.last ? ' (showing the last snapshot)' : ''));
      });
    }

    function render(snapshot) {
      const parts = [renderHeader, renderLines, renderTotals, renderCharts, renderStations, renderInFlight,
        renderRecentAttempts, renderEvents];
      for (const part of parts) {
        try {
          part(snapshot);
        } catch (error) {
          showProblem('This page cannot draw part of the snapshot (' + part.name + '): ' + error.message);
        }
      }
    }

    function renderHeader(snapshot) {
      byId('ledger').textContent = dash(snapshot.ledger);
      const filter = byId('line-filter');
      if (snapshot.line) {
        filter.replaceChildren('line ' + snapshot.line + ' (', h('a', { href: window.location.pathname, text: 'every line' }), ')');
      } else {
        filter.textContent = 'every line';
      }
      byId('generated-at').textContent = formatDateTime(snapshot.generatedAt);
      const enabled = Boolean(snapshot.controls && snapshot.controls.enabled);
      byId('controls-note').hidden = enabled;
      document.body.dataset.controls = enabled ? 'on' : 'off';
    }

    document.addEventListener('DOMContentLoaded', () => {
      setupControls();
      setupHistory();
      connect();
    });
    """#
}
