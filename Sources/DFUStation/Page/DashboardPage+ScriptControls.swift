extension DashboardPage {
    /// The script's controls and the device history: the resume form (`#resume-form`) and the
    /// release form (`#release-form`) ask for the operator's name and the token (kept in
    /// sessionStorage for the tab) and POST with `Authorization: Bearer`; clicking a device opens
    /// `#device-history` from `/api/devices/ADDRESS`, each attempt with its audit record.
    static let scriptControls = #"""
    function storedToken() {
      try { return window.sessionStorage.getItem(dashboard.tokenKey) || ''; } catch (ignored) { return ''; }
    }

    function storeToken(token) {
      try {
        if (token) window.sessionStorage.setItem(dashboard.tokenKey, token);
        else window.sessionStorage.removeItem(dashboard.tokenKey);
      } catch (ignored) { /* a browser without storage asks every time */ }
    }

    function storedOperator() {
      try { return window.sessionStorage.getItem(dashboard.operatorKey) || ''; } catch (ignored) { return ''; }
    }

    function storeOperator(name) {
      try { window.sessionStorage.setItem(dashboard.operatorKey, name); } catch (ignored) { /* asked every time */ }
    }

    // Shows the token field only while no token is kept.
    function refreshTokenFields(form) {
      const kept = Boolean(storedToken());
      form.querySelector('[data-token-field]').hidden = kept;
      form.querySelector('[data-token-stored]').hidden = !kept;
      form.elements.token.required = !kept;
      if (kept) form.elements.token.value = '';
    }

    function showAnswer(form, outcome, message) {
      const output = form.querySelector('[data-field="answer"]');
      output.dataset.outcome = outcome;
      output.textContent = message;
    }

    // POSTs a control; resolves to { status, recorded, message } (status 0: the server was not reached).
    async function postControl(path, body, token) {
      let response;
      try {
        response = await fetch(path, {
          method: 'POST',
          cache: 'no-store',
          headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + token },
          body: JSON.stringify(body),
        });
      } catch (error) {
        return { status: 0, recorded: false, message: 'the server cannot be reached: ' + error.message };
      }
      let answer = {};
      try { answer = await response.json(); } catch (ignored) { /* no JSON: the status says enough */ }
      return { status: response.status, recorded: answer.recorded === true, message: text(answer.error) };
    }

    // Reads a control form, posts it, shows the server's answer; resolves to whether it was recorded.
    async function submitControl(form, path, done) {
      const operator = form.elements.operator.value.trim();
      const reason = form.elements.reason.value.trim();
      const token = storedToken() || form.elements.token.value.trim();
      if (!operator) { showAnswer(form, 'refused', 'Say who you are: the ledger records the operator.'); return false; }
      if (!token) { showAnswer(form, 'refused', 'Give the dashboard token.'); return false; }
      storeOperator(operator);
      const button = form.querySelector('button[type="submit"]');
      button.disabled = true;
      showAnswer(form, 'pending', 'Sending…');
      const answer = await postControl(path, { operator: operator, reason: reason || null }, token);
      button.disabled = false;
      if (answer.status === 200 && answer.recorded) {
        storeToken(token);
        showAnswer(form, 'recorded', done);
      } else if (answer.status === 401) {
        storeToken('');
        showAnswer(form, 'refused', 'Refused (401): ' + (answer.message || 'wrong token') + '. Give the token again.');
      } else if (answer.status === 0) {
        showAnswer(form, 'refused', 'Not sent: ' + answer.message + '.');
      } else {
        if (answer.status === 409) storeToken(token);
        showAnswer(form, 'refused', 'Not recorded (' + answer.status + '): ' + (answer.message || 'no reason given') + '.');
      }
      refreshTokenFields(form);
      return answer.status === 200 && answer.recorded;
    }

    function setupControls() {
      const form = byId('resume-form');
      byId('lines').addEventListener('click', (event) => {
        const button = event.target.closest('button[data-action="resume"]');
        if (button && !button.disabled) openResumeForm(button.dataset.target);
      });
      form.querySelector('[data-action="cancel"]').addEventListener('click', () => { form.hidden = true; });
      form.addEventListener('submit', async (event) => {
        event.preventDefault();
        const line = form.dataset.line;
        await submitControl(form, '/api/lines/' + encodeURIComponent(line) + '/resume',
          'Recorded: line ' + line + ' resumed. Its stations start new devices again.');
      });
      const release = byId('release-form');
      release.addEventListener('submit', async (event) => {
        event.preventDefault();
        const device = release.dataset.device;
        const recorded = await submitControl(release, '/api/devices/' + encodeURIComponent(device) + '/release',
          'Recorded: ' + device + ' released. Stations may claim it again.');
        if (recorded) openHistory(device, true);
      });
      for (const each of [form, release]) {
        each.querySelector('[data-action="forget-token"]').addEventListener('click', () => {
          storeToken('');
          refreshTokenFields(each);
        });
      }
    }

    function openResumeForm(line) {
      const form = byId('resume-form');
      form.dataset.line = line;
      form.querySelector('[data-field="line"]').textContent = line;
      form.elements.operator.value = form.elements.operator.value || storedOperator();
      showAnswer(form, '', '');
      refreshTokenFields(form);
      form.hidden = false;
      form.elements.operator.focus();
    }

    function setupHistory() {
      for (const id of ['in-flight', 'recent-attempts', 'events']) {
        byId(id).addEventListener('click', (event) => {
          const row = event.target.closest('tr[data-device]');
          if (row) openHistory(row.dataset.device);
        });
      }
      byId('device-history').querySelector('[data-action="close-history"]').addEventListener('click', () => {
        const panel = byId('device-history');
        panel.hidden = true;
        delete panel.dataset.device;
      });
    }

    async function openHistory(address, keepAnswer) {
      const panel = byId('device-history');
      const content = panel.querySelector('[data-field="content"]');
      const release = byId('release-form');
      panel.dataset.device = address;
      delete panel.dataset.loaded;
      panel.querySelector('.history-head [data-field="device"]').textContent = address;
      if (!keepAnswer) {
        release.hidden = true;
        showAnswer(release, '', '');
      }
      content.replaceChildren(h('p', { className: 'empty', text: 'Reading the ledger…' }));
      panel.hidden = false;
      panel.scrollIntoView({ block: 'nearest' });
      let status = 0;
      let history = null;
      let message = '';
      try {
        const response = await fetch('/api/devices/' + encodeURIComponent(address), { cache: 'no-store' });
        status = response.status;
        const body = await response.json();
        if (response.ok) history = body; else message = text(body.error);
      } catch (error) {
        message = error.message;
      }
      if (panel.dataset.device !== address) return;  // another device was opened meanwhile
      panel.dataset.loaded = status === 200 ? 'history' : 'none';
      if (!history) {
        content.replaceChildren(h('p', { className: 'empty',
          text: status === 404 ? 'The ledger has no attempt of ' + address + '.' : 'Cannot read the history: ' + (message || status) }));
        release.hidden = true;
        return;
      }
      content.replaceChildren(...historyParts(history));
      const quarantined = isQuarantined(list(history.events));
      release.hidden = !quarantined;
      if (quarantined) {
        release.dataset.device = address;
        release.querySelectorAll('[data-field="device"]').forEach((element) => { element.textContent = address; });
        release.elements.operator.value = release.elements.operator.value || storedOperator();
        release.querySelector('button[type="submit"]').disabled = !(dashboard.last && dashboard.last.controls
          && dashboard.last.controls.enabled);
        refreshTokenFields(release);
      }
    }

    // Quarantined now: its last quarantine or release is a quarantine.
    function isQuarantined(events) {
      const last = events.filter((event) => event.kind === 'quarantined' || event.kind === 'released').pop();
      return Boolean(last && last.kind === 'quarantined');
    }

    function historyParts(history) {
      const parts = [];
      if (history.live) {
        const live = history.live;
        parts.push(h('h3', { text: 'In flight now' }), h('dl', {}, [
          h('dt', { text: 'Station' }), h('dd', { text: dash(live.station) + (live.radio ? ' (' + live.radio + ')' : '') }),
          h('dt', { text: 'Phase' }), h('dd', { text: dash(live.phase) }),
          h('dt', { text: 'Progress' }), h('dd', { text: formatBytes(live.done) + ' of ' + formatBytes(live.total) }),
          h('dt', { text: 'Attempt' }), h('dd', { text: dash(live.attempt) }),
        ]));
      }
      const attempts = list(history.attempts);
      parts.push(h('h3', { text: attempts.length + (attempts.length === 1 ? ' attempt' : ' attempts') }));
      for (const attempt of attempts) parts.push(attemptPart(attempt));
      const events = list(history.events);
      if (events.length) {
        parts.push(h('h3', { text: 'Quarantines and releases' }), h('ul', {}, events.map((event) => h('li', {
          dataset: { kind: text(event.kind) },
          text: formatDateTime(event.at) + ' ' + text(event.kind) + (event.operator ? ' by ' + event.operator : '')
            + (event.station ? ' on ' + event.station : '') + (event.reason ? ': ' + event.reason : ''),
        }))));
      }
      return parts;
    }

    function attemptPart(attempt) {
      const failed = attempt.result === 'failed';
      const error = [attempt.errorKind, attempt.errorMessage].filter(Boolean).join(': ');
      const audit = attempt.audit
        ? h('details', {}, [h('summary', { text: 'Audit record' + (attempt.audit.keyId ? ' (key ' + attempt.audit.keyId + ')' : '') }),
          h('pre', { className: 'audit', text: JSON.stringify(attempt.audit, null, 2) })])
        : h('p', { className: 'empty', text: 'No audit record.' });
      return h('div', { className: 'attempt' + (failed ? ' failed' : ''), dataset: { attempt: text(attempt.attempt), result: text(attempt.result) } }, [
        h('h3', { text: '#' + text(attempt.attempt) + ' ' + text(attempt.result) + ' on ' + dash(attempt.station)
          + (attempt.radio ? ' (' + attempt.radio + ')' : '') }),
        h('dl', {}, [
          h('dt', { text: 'Started' }), h('dd', { text: formatDateTime(attempt.startedAt) }),
          h('dt', { text: 'Ended' }), h('dd', { text: formatDateTime(attempt.endedAt) }),
          h('dt', { text: 'Time' }), h('dd', { text: formatSeconds(attempt.seconds) }),
          h('dt', { text: 'Bytes' }), h('dd', { text: formatBytes(attempt.bytes) }),
          h('dt', { text: 'Line' }), h('dd', { text: dash(attempt.line) }),
          h('dt', { text: 'Profile' }), h('dd', { text: dash(attempt.profile) }),
          h('dt', { text: 'Package' }), h('dd', { className: 'mono', text: dash(attempt.packageSHA256) }),
          failed ? h('dt', { text: 'Error' }) : null, failed ? h('dd', { text: dash(error) }) : null,
        ]),
        audit,
      ]);
    }
    """#
}
