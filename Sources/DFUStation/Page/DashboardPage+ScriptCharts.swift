extension DashboardPage {
    /// The script's charts, drawn as SVG: done and failed devices by hour (stacked bars), failed
    /// attempts by cause (horizontal bars), and the yield and first-pass yield (bars on a 0–100 % track).
    static let scriptCharts = #"""
    function renderCharts(snapshot) {
      byId('chart-hourly').replaceChildren(hourlyChart(list(snapshot.hourly)));
      byId('chart-causes').replaceChildren(causesChart(list(snapshot.failuresByCause)));
      byId('chart-yield').replaceChildren(yieldChart(snapshot.totals || {}));
    }

    function chartRoot(width, height, label) {
      return svg('svg', { attributes: { viewBox: '0 0 ' + width + ' ' + height, role: 'img', 'aria-label': label,
        preserveAspectRatio: 'xMinYMin meet' } });
    }

    function chartText(x, y, value, anchor, className) {
      return svg('text', { attributes: { x: x, y: y, 'text-anchor': anchor || 'start', class: className }, text: value });
    }

    function emptyChart(message) {
      return h('p', { className: 'empty', text: message });
    }

    function hourlyChart(hours) {
      if (!hours.length) return emptyChart('No attempt has ended yet.');
      const width = 480;
      const height = 200;
      const left = 40;
      const top = 10;
      const bottom = 24;
      const plot = height - top - bottom;
      const highest = Math.max(1, ...hours.map((hour) => integer(hour.done) + integer(hour.failed)));
      const slot = (width - left - 6) / hours.length;
      const barWidth = Math.max(3, Math.min(40, slot * 0.7));
      const root = chartRoot(width, height, 'Done and failed devices by hour');
      for (const fraction of [0, 0.5, 1]) {
        const y = top + plot - fraction * plot;
        root.append(svg('line', { className: 'axis', attributes: { x1: left - 4, x2: width, y1: y, y2: y } }));
        root.append(chartText(left - 8, y + 4, String(Math.round(highest * fraction)), 'end'));
      }
      const labelEvery = Math.ceil(hours.length / 12);
      hours.forEach((hour, index) => {
        const done = integer(hour.done);
        const failed = integer(hour.failed);
        const x = left + index * slot + (slot - barWidth) / 2;
        const doneHeight = (done / highest) * plot;
        const failedHeight = (failed / highest) * plot;
        const label = formatHour(hour.hour);
        const group = svg('g', { dataset: { hour: text(hour.hour), done: done, failed: failed } }, [
          svg('title', { text: label + ': ' + done + ' done, ' + failed + ' failed' }),
          svg('rect', { className: 'bar-done', attributes: { x: x, width: barWidth, y: top + plot - doneHeight, height: doneHeight } }),
          svg('rect', { className: 'bar-failed',
            attributes: { x: x, width: barWidth, y: top + plot - doneHeight - failedHeight, height: failedHeight } }),
        ]);
        if (index % labelEvery === 0) group.append(chartText(x + barWidth / 2, height - 8, label, 'middle'));
        root.append(group);
      });
      return root;
    }

    function formatHour(iso) {
      const date = new Date(iso);
      if (Number.isNaN(date.getTime())) return text(iso);
      return date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    }

    function causesChart(causes) {
      if (!causes.length) return emptyChart('No failed attempt.');
      const shown = causes.slice(0, 10);
      const width = 480;
      const row = 24;
      const labelWidth = 150;
      const valueWidth = 130;
      const height = shown.length * row + 6;
      const most = Math.max(1, ...shown.map((cause) => integer(cause.attempts)));
      const root = chartRoot(width, height, 'Failed attempts by cause');
      shown.forEach((cause, index) => {
        const y = index * row + 4;
        const attempts = integer(cause.attempts);
        const barWidth = Math.max(1, (attempts / most) * (width - labelWidth - valueWidth));
        const name = text(cause.cause) || 'unknown';
        root.append(svg('g', { dataset: { cause: name } }, [
          svg('title', { text: name + ': ' + attempts + ' failed attempts of ' + integer(cause.devices) + ' devices' }),
          chartText(labelWidth - 6, y + 14, name.length > 22 ? name.slice(0, 21) + '…' : name, 'end'),
          svg('rect', { className: 'bar-cause', attributes: { x: labelWidth, y: y + 2, width: barWidth, height: row - 8 } }),
          chartText(labelWidth + barWidth + 6, y + 14, attempts + ' attempts, ' + integer(cause.devices) + ' devices', 'start', 'value'),
        ]));
      });
      return root;
    }

    function yieldChart(totals) {
      const width = 480;
      const row = 34;
      const labelWidth = 110;
      const valueWidth = 70;
      const bars = [['Yield', totals.yield], ['First pass', totals.firstPassYield]];
      const root = chartRoot(width, bars.length * row + 6, 'Yield and first-pass yield');
      bars.forEach(([label, fraction], index) => {
        const y = index * row + 4;
        const track = width - labelWidth - valueWidth;
        const known = Number.isFinite(fraction);
        const filled = known ? Math.max(0, Math.min(1, fraction)) * track : 0;
        root.append(svg('g', { dataset: { bar: label } }, [
          chartText(labelWidth - 8, y + 17, label, 'end'),
          svg('rect', { className: 'bar-track', attributes: { x: labelWidth, y: y + 4, width: track, height: row - 14 } }),
          svg('rect', { className: 'bar-yield', attributes: { x: labelWidth, y: y + 4, width: filled, height: row - 14 } }),
          chartText(labelWidth + track + 8, y + 17, formatPercent(fraction), 'start', 'value'),
        ]));
      });
      return root;
    }
    """#
}
