/* jwd Web Administration: reads the JSON API every few seconds and updates the page in place: a row, a cell, a
   button is made once and afterwards only its text or state changes, so selections and tooltips survive a refresh.
   Plain ES5 and the DOM: nothing is fetched but this interface's own API. Actions are POSTs carrying
   X-Jwd-Admin: 1, which the server requires (with the browser's Origin) so that no other site can act through an
   operator's browser. An action's error stays until it is dismissed or the next action; a failed refresh says so
   apart, and clears with the next good one. */
(function () {
  'use strict';

  var COLORS = ['#0969da', '#cf222e', '#1a7f37', '#9a6700', '#8250df', '#bf3989', '#0a7b83', '#6e7781'];
  /** The slow tables (systems, configuration, URL mapping) are read every this many refreshes. */
  var SLOW_EVERY = 5;
  var refreshMs = parseInt(document.body.getAttribute('data-refresh-ms'), 10) || 2000;
  var colorOf = {};
  /** Whether wdisp/system_<xx> systems are configured: only then are systems, and each server's, shown. */
  var systemsOn = false;
  var paused = false;
  var timer = null;
  var rounds = 0;
  var failedLoads = {};

  function request(method, path, body, callback) {
    var xhr = new XMLHttpRequest();
    xhr.open(method, path, true);
    xhr.setRequestHeader('Accept', 'application/json');
    if (method !== 'GET') {
      xhr.setRequestHeader('X-Jwd-Admin', '1');
    }
    if (body !== null) {
      xhr.setRequestHeader('Content-Type', 'text/plain;charset=utf-8');
    }
    xhr.onreadystatechange = function () {
      if (xhr.readyState !== 4) {
        return;
      }
      var json = null;
      try {
        json = JSON.parse(xhr.responseText);
      } catch (e) {
        json = null;
      }
      callback(xhr.status, json);
    };
    xhr.send(body);
  }

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) {
      e.textContent = String(text);
    }
    if (cls) {
      e.className = cls;
    }
    return e;
  }

  function clear(node) {
    while (node.firstChild) {
      node.removeChild(node.firstChild);
    }
  }

  /* ---- updating in place ---- */

  /**
   * Sets a node's text, class and title only where they changed: a selection inside stays. `undefined` leaves
   * that part as it is.
   */
  function setText(node, text, cls, title) {
    var t = text === null ? '' : String(text);
    if (text !== undefined && node.textContent !== t) {
      node.textContent = t;
    }
    if (cls !== undefined && node.className !== cls) {
      node.className = cls;
    }
    if (title !== undefined && node.title !== (title || '')) {
      node.title = title || '';
    }
  }

  /**
   * Sets a cell to "left / right" in place, each half kept whole (no break inside "31.5 KB"), so that a narrow column
   * wraps it at the slash only. Without `right`, the cell is `left` alone.
   */
  function setHalves(td, left, right, cls, title) {
    if (right === undefined) {
      setText(td, left, cls, title);
      return;
    }
    var halves = td.querySelectorAll('.half');
    if (halves.length !== 2) {
      td.textContent = '';
      halves = [td.appendChild(el('span', null, 'half'))];
      td.appendChild(document.createTextNode(' / '));
      halves.push(td.appendChild(el('span', null, 'half')));
    }
    setText(halves[0], left);
    setText(halves[1], right);
    setText(td, undefined, cls, title);
  }

  /** The child of `parent` with this id, made by `make` the first time. */
  function keyed(parent, id, make) {
    var node = document.getElementById(id);
    if (!node) {
      node = make();
      node.id = id;
      parent.appendChild(node);
    }
    return node;
  }

  /** Removes the children of `parent` whose id is not among `keep`. */
  function prune(parent, keep) {
    Array.prototype.slice.call(parent.children).forEach(function (child) {
      if (!keep[child.id]) {
        parent.removeChild(child);
      }
    });
  }

  /** The cell of `row` for `field`, made (in order) the first time. */
  function cell(row, field, cls) {
    var td = row.querySelector('td[data-field="' + field + '"]');
    if (!td) {
      td = el('td', null, cls);
      td.setAttribute('data-field', field);
      row.appendChild(td);
    }
    return td;
  }

  /** A table of key and value rows, updated in place; `pairs` is [[key, value], ...]. */
  function renderPairs(tableId, pairs) {
    var body = document.querySelector('#' + tableId + ' tbody');
    var keep = {};
    pairs.forEach(function (p) {
      var id = tableId + '-row-' + p[0].replace(/[^A-Za-z0-9_-]/g, '_');
      keep[id] = true;
      var row = keyed(body, id, function () {
        var tr = el('tr');
        tr.appendChild(el('th', p[0]));
        var td = el('td');
        td.setAttribute('data-field', p[0]);
        tr.appendChild(td);
        return tr;
      });
      setText(row.querySelector('td'), p[1], typeof p[1] === 'number' ? 'num' : '');
    });
    prune(body, keep);
  }

  /* ---- human units ---- */

  function duration(ms) {
    var s = Math.floor(ms / 1000);
    if (ms < 1000) {
      return Math.round(ms) + ' ms';
    }
    if (s < 60) {
      return s + ' s';
    }
    if (s < 3600) {
      return Math.floor(s / 60) + ' min ' + (s % 60) + ' s';
    }
    if (s < 86400) {
      return Math.floor(s / 3600) + ' h ' + Math.floor(s % 3600 / 60) + ' min';
    }
    return Math.floor(s / 86400) + ' d ' + Math.floor(s % 86400 / 3600) + ' h';
  }

  function bytes(n) {
    var units = ['B', 'KB', 'MB', 'GB', 'TB'];
    var i = 0;
    while (n >= 1024 && i < units.length - 1) {
      n /= 1024;
      i++;
    }
    return (i === 0 ? String(n) : n.toFixed(n >= 100 ? 0 : 1)) + ' ' + units[i];
  }

  /** Two significant digits: the figures are bucket bounds, good to a quarter. */
  function millis(ms) {
    return ms >= 10 ? String(Math.round(ms)) : ms.toPrecision(2);
  }

  function time(iso) {
    return iso ? new Date(iso).toLocaleString() : '–';
  }

  function since(iso) {
    return iso ? duration(Math.max(0, Date.now() - new Date(iso).getTime())) : '–';
  }

  /* ---- messages ---- */

  /** An action's error: it stays until dismissed or the next action. */
  function showError(message) {
    setText(document.getElementById('error-text'), message || '');
    document.getElementById('error').hidden = !message;
  }

  /** A refresh's failure: shown apart, cleared by the next good one. */
  function loaded(path, ok, status) {
    if (ok) {
      delete failedLoads[path];
    } else {
      failedLoads[path] = status;
    }
    var failed = Object.keys(failedLoads);
    var box = document.getElementById('connection');
    setText(box, failed.length ? 'the last refresh failed: ' + failed.map(function (p) {
      return 'GET ' + p + ' ' + (failedLoads[p] || 'no answer');
    }).join(', ') : '');
    box.hidden = !failed.length;
  }

  function color(id) {
    if (!colorOf[id]) {
      colorOf[id] = COLORS[Object.keys(colorOf).length % COLORS.length];
    }
    return colorOf[id];
  }

  /* ---- the tables ---- */

  function renderStatus(s) {
    var t = s.servers;
    setText(document.getElementById('version'), 'version ' + (s.version || 'unknown'));
    setText(document.getElementById('started'), 'started ' + time(s.started) + ', up ' + duration(s.uptime_s * 1000));
    setText(document.getElementById('ready'), s.ready.ready ? 'ready' : 'not ready',
        'badge ' + (s.ready.ready ? 'ready' : 'not-ready'), s.ready.reason);
    setText(document.getElementById('summary'), t.total + ' servers: ' + t.up + ' up, ' + t.drained +
        ' drained, ' + t.down + ' down, ' + t.disabled + ' disabled (' + t.registered + ' registered) · ' +
        s.requests.served + ' requests served, ' + s.requests.in_flight + ' in flight, ' + s.requests.errors +
        ' errors');
    renderAccessLog(s.access_log);
    setText(document.getElementById('updated'), (paused ? 'paused at ' : 'updated ') +
        new Date().toLocaleTimeString() + (paused ? '' : ', every ' + (refreshMs / 1000) + ' s'));
  }

  function actionButton(row, server, action, label, disabled) {
    var id = action + '-' + server.id;
    var b = document.getElementById(id);
    if (!b) {
      b = el('button', label, 'action');
      b.id = id;
      b.type = 'button';
      b.setAttribute('data-server', server.id);
      b.setAttribute('data-action', action);
      b.onclick = function () {
        act(server.id, action);
      };
      cell(row, 'actions').appendChild(b);
    }
    if (b.disabled !== disabled) {
      b.disabled = disabled;
    }
  }

  function renderServer(body, s, withSystems) {
    var row = keyed(body, 'server-' + s.id, function () {
      return el('tr');
    });
    var name = cell(row, 'id');
    setText(name, s.id + (s.source === 'registry' ? ' ⟳' : s.source === 'discovery' ? ' ◆' : ''), undefined,
        (s.url || s.https_url) + (s.source === 'registry' ? ' (registered; expires in ' + duration(s.expires_in_ms) +
            ' without a report)' : s.source === 'discovery' ? ' (SAP instance ' + s.sap_name + ', from ' +
            s.discovered_from + ')' : ' (configuration file)'));
    var system = cell(row, 'system');
    system.hidden = !withSystems;
    setText(system, s.system || '–', undefined, s.system ? 'system ' + s.system : 'of no system');
    setText(cell(row, 'type'), s.type);
    setText(cell(row, 'groups'), s.groups.join(', '));
    setText(cell(row, 'capacity', 'num'), s.capacity);
    setText(cell(row, 'route'), s.route === null ? '–' : s.route + ' (' + s.route_source + ')');
    renderState(row, s);
    setText(cell(row, 'load', 'num'), s.load.value === null ? '–' : s.load.value, undefined,
        s.load.measure + ' in ' + s.load.group + ' (' + s.load.strategy + ')');
    setText(cell(row, 'in_flight', 'num'), s.in_flight);
    setText(cell(row, 'served', 'num'), s.served);
    setText(cell(row, 'stateless', 'num'), s.stateless);
    setText(cell(row, 'stateful', 'num'), s.stateful);
    var a = s.answers;
    setText(cell(row, 'errors', 'num'), a.server_4xx + ' / ' + a.server_5xx + ' · ' + (a.jwd_502 + a.jwd_503 +
        a.jwd_504), undefined, 'its own answers: ' + a.server_4xx + ' 4xx, ' + a.server_5xx + ' 5xx; jwd answered ' +
        a.jwd_502 + ' 502, ' + a.jwd_503 + ' 503, ' + a.jwd_504 + ' 504 for it; ' + s.errors + ' failed requests');
    var times = s.response_ms;
    var over = times ? 'p50 / p99 of ' + times.answers + ' answers in the last minute' : 'no answer in the last minute';
    setHalves(cell(row, 'first_byte', 'num'), times ? millis(times.first_byte_p50) : '–',
        times ? millis(times.first_byte_p99) + ' ms' : undefined, undefined, over);
    setHalves(cell(row, 'response', 'num'), times ? millis(times.last_byte_p50) : '–',
        times ? millis(times.last_byte_p99) + ' ms' : undefined, undefined, over);
    setHalves(cell(row, 'bytes', 'num'), bytes(a.bytes_in), bytes(a.bytes_out), undefined,
        a.bytes_in + ' bytes in, ' + a.bytes_out + ' bytes out');
    renderCheck(row, s);
    actionButton(row, s, 'drain', 'Drain', s.admin_state === 'drained');
    actionButton(row, s, 'disable', 'Disable', s.admin_state === 'disabled');
    actionButton(row, s, 'enable', 'Enable', s.admin_state === 'enabled');
  }

  function renderState(row, s) {
    var state = cell(row, 'state');
    var label = state.querySelector('.label') || state.appendChild(el('span', null, 'label'));
    var https = s.https && s.url && s.https.state !== s.state ? ' (HTTPS: ' + s.https.state + ')' : '';
    setText(label, s.state + https);
    setText(state, undefined, 'state state-' + s.state, undefined);
    var when = state.querySelector('.since') || state.appendChild(el('span', null, 'since'));
    var op = s.operator;
    setText(when, 'for ' + since(s.state_since), 'since', 'since ' + time(s.state_since) + ' · ' +
        s.admin_state + (op.by ? ' by ' + op.by + ' at ' + time(op.at) : ' by the configuration (server.' + s.id +
        '.state=' + op.configured + ')') + ' · kept ' + op.kept);
  }

  function renderCheck(row, s) {
    var check = cell(row, 'last_check', 'check');
    var c = s.check;
    var failures = check.querySelector('.failures') || check.appendChild(el('span', null, 'failures'));
    var last = check.querySelector('.last') || check.appendChild(el('span', null, 'last'));
    setText(failures, c.failed_checks ? c.failed_checks + ' failed · ' : '');
    setText(last, s.last_check);
    check.title = 'GET ' + c.url + ' every ' + c.interval + ' (timeout ' + c.timeout + ', expects ' + c.status +
        ', fall ' + c.fall + ', rise ' + c.rise + ')' + (c.last_failure ? '\nlast failure at ' +
        time(c.last_failure_at) + ': ' + c.last_failure : '') + (s.https && s.url ? '\nHTTPS: ' +
        s.https.last_check : '');
  }

  function renderServers(servers) {
    var body = document.querySelector('#servers tbody');
    // api/servers names each server's system only with systems; a registered server may be of none
    var withSystems = systemsOn || servers.some(function (s) {
      return s.system !== undefined;
    });
    document.getElementById('servers-system').hidden = !withSystems;
    var keep = {};
    servers.forEach(function (s) {
      keep['server-' + s.id] = true;
      renderServer(body, s, withSystems);
    });
    prune(body, keep);
  }

  function renderGroups(groups) {
    var box = document.getElementById('groups');
    var keep = {};
    groups.forEach(function (g) {
      // with systems every system has its own !J2EE, !DIAG and logon groups: the system tells them apart
      var id = 'group-' + (g.system ? g.system + '-' : '') + g.name + '-' + g.type + (g.secure ? '-secure' : '');
      keep[id] = true;
      var div = keyed(box, id, function () {
        var d = el('div', null, 'group');
        if (g.system) {
          d.setAttribute('data-system', g.system);
        }
        d.appendChild(el('h3'));
        d.appendChild(el('div', null, 'meta'));
        var fav = el('div', 'favorite: ');
        fav.appendChild(el('span')).setAttribute('data-field', 'favorite');
        d.appendChild(fav);
        d.appendChild(el('div', null, 'meta members'));
        return d;
      });
      setText(div.querySelector('h3'), (g.system ? g.system + ' · ' : '') + g.name +
          (g.kind === 'logon' ? ' (' + g.type + ')' : ''));
      // A logon group's favorite and members show its message server's view (qualities); what balances its
      // HTTP requests, and where the next one goes, is said beside it.
      setText(div.querySelector('.meta'), g.kind === 'logon' ? 'logon group type ' + g.logon_group_type + ' (' +
          g.measure + '), ext. RFC ' + (g.ext_rfc ? 'TRUE' : 'FALSE') + ', prefixes ' +
          (g.url_prefixes.join(', ') || '–') + ' · HTTP by ' + g.strategy + ', next request: ' +
          (g.next_request || '–') : 'internal group' + (g.strategy ? ' · ' + g.strategy + ' (' + g.measure + ')' : ''));
      setText(div.querySelector('[data-field=favorite]'), g.favorite || 'none (no server takes new requests)',
          g.favorite ? 'favorite' : 'muted');
      setText(div.querySelector('.members'), g.members.length ? g.members.map(function (m) {
        return m.id + ' [' + m.state + ', ' + g.measure + ' ' + m.value + ', capacity ' + m.capacity + ']';
      }).join(' · ') : 'no members');
    });
    prune(box, keep);
  }

  /** The systems, shown only when wdisp/system_<xx> entries are configured. */
  function renderSystems(v) {
    systemsOn = v.systems.length > 0;
    document.getElementById('systems-section').hidden = !systemsOn;
    var body = document.querySelector('#systems tbody');
    setText(document.getElementById('systems-meta'), !systemsOn ? '' : 'wdisp/system_conflict_resolution ' +
        v.conflict_resolution + (v.conflict_resolution === '1' ? ' (the first in entry order takes a request' +
        ' several meet)' : ' (systems that meet one request are refused)') + ' · jwd.default_system ' +
        (v.default_system || 'not set: a request no entry matches gets 404') +
        (v.overlaps.length ? ' · overlaps: ' + v.overlaps.join('; ') : ''));
    var keep = {};
    v.systems.forEach(function (sys) {
      keep['system-' + sys.sid] = true;
      var row = keyed(body, 'system-' + sys.sid, function () {
        return el('tr');
      });
      setText(cell(row, 'sid'), sys.sid + (sys.by_default ? ' (default)' : ''));
      setText(cell(row, 'entries'), sys.entries.map(function (e) {
        return e.definition;
      }).join(' | ') + (sys.external_servers.length ? ' | EXTSRV ' + sys.external_servers.join(', ') +
          ', STICKY ' + sys.sticky : ''));
      setText(cell(row, 'ssl_encrypt', 'num'), sys.ssl_encrypt);
      setText(cell(row, 'servers'), sys.servers.join(', ') || '–');
      setText(cell(row, 'groups'), sys.groups.join(', '));
    });
    prune(body, keep);
  }

  /** Discovery from SAP's message server and ICF, shown only when a system discovers. */
  function renderDiscovery(v) {
    document.getElementById('discovery-section').hidden = v.systems.length === 0;
    setText(document.getElementById('discovery-meta'), v.systems.length === 0 ? '' : 'the last good view is kept in ' +
        (v.kept_file || 'no file (jwd.discovery_file)') + (v.kept_error ? ' · ' + v.kept_error : ''));
    var body = document.querySelector('#discovery tbody');
    var keep = {};
    v.systems.forEach(function (d) {
      keep['discovery-' + d.system] = true;
      var row = keyed(body, 'discovery-' + d.system, function () {
        return el('tr');
      });
      setText(cell(row, 'system'), d.system === '-' ? '(the one system)' : d.system);
      setText(cell(row, 'source'), d.source + (d.icf_source ? ' · ICF ' + d.icf_source : ''));
      setText(cell(row, 'refreshed', 'num'), d.refreshed_at ? since(d.refreshed_at) + ' ago' : 'never', undefined,
          time(d.refreshed_at));
      setText(cell(row, 'view'), d.kept_since ? 'kept view of ' + time(d.kept_since) + ': the message server has not'
          + ' answered since the start' : d.failing_since ? 'last good view: no answer since ' + time(d.failing_since)
          : d.servers + ' servers, fresh', d.kept_since || d.failing_since ? 'warn' : '');
      setText(cell(row, 'error'), d.last_error || '–', undefined, d.problems.join('\n'));
      setText(cell(row, 'changes'), d.changes.map(function (c) {
        return time(c.at) + ' ' + c.text;
      }).join(' · ') || '–');
    });
    prune(body, keep);
  }

  /** What a cluster state means for this node's bindings, in a few words. */
  var CLUSTER_STATES = {
    CONNECTING: 'connecting: bindings kept on this node until the server is reached',
    CONNECTED: 'connected: bindings shared through the Terracotta server',
    DISCONNECTED: 'server lost: bindings kept on this node until it returns'
  };

  function renderSessionTable(t) {
    var pairs = [
      ['enabled', t.enabled ? 'yes' : 'no (wdisp/HTTP/esid_support, wdisp/HTTP/jsessionid_tab_support and '
        + 'SessionTableTimeout all off)'],
      ['session ID table', (t.esid_support ? 'ESIDs' : 'no ESIDs') + ', '
        + (t.jsessionid_tab_support ? 'learned JSESSIONIDs' : 'no JSESSIONIDs')
        + ' (wdisp/HTTP/context_timeout ' + t.context_timeout + ')'],
      ['temporary table', t.temporary_table ? 'on: JSESSIONIDs bound at request time, idle timeout ' + t.timeout
        : 'off (SessionTableTimeout=0)'],
      ['JSESSIONID entries expire after', t.jsessionid_timeout]];
    // with wdisp/system_<xx>: each system binds and times its own entries (SID/<id>) in the one table
    (t.systems || []).forEach(function (s) {
      pairs.push(['system ' + s.sid, (s.esid_support ? 'ESIDs' : 'no ESIDs') + ' (expire after '
        + s.context_timeout + '), ' + (s.jsessionid_tab_support ? 'learned JSESSIONIDs' : 'no learned JSESSIONIDs')
        + ', temporary table ' + (s.temporary_table ? 'on' : 'off') + '; JSESSIONID entries expire after '
        + s.jsessionid_timeout]);
    });
    pairs.push(
      ['full', t.full ? 'yes: requests it does not hold go to their group\'s default server' : 'no'],
      ['entries', t.entries], ['hits', t.hits], ['misses', t.misses], ['bindings', t.bindings],
      ['rebindings', t.rebindings], ['expirations', t.expirations], ['rejected', t.rejected]);
    var c = t.cluster_status;
    if (c) {
      pairs.push(['cluster', c.state], ['cluster server', c.uri],
        ['cluster state since', time(c.since) + ' (' + (CLUSTER_STATES[c.state] || c.state) + ')'],
        ['cluster outages', c.outages], ['served locally', c.served_locally],
        ['carried over', c.carried_over],
        ['server writes', c.writes + (c.writes ? ', ' + c.write_mean_micros + ' µs each on average since the start' : '')]);
    }
    var p = t.persistence;
    pairs.push(['persistent', p ? 'yes: ' + p.directory + ' (SessionTable.disk_path)' : 'no: lost at a restart']);
    if (p) {
      pairs.push(['restored at start', p.restored + ' bindings at ' + time(p.restored_at) + ', ' + p.dropped
        + ' dropped (idle past their timeout, or their server gone)'],
        ['last written', (p.last_flush ? time(p.last_flush) : 'not yet') +
          (p.flush_failures ? ', ' + p.flush_failures + ' writes failed' : '')]);
      if (p.flush_failure) {
        pairs.push(['writing fails', p.flush_failure + ' (the last good write is kept; tried again every '
          + 'SessionTable.disk_flush_interval)']);
      }
    }
    renderPairs('sessiontable', pairs);
    var td = document.querySelector('#sessiontable td[data-field="cluster"]');
    if (td) {
      setText(td, c.state, 'state ' + (c.state === 'CONNECTED' ? 'state-up' : 'state-down'));
    }
  }

  /** The access logs' files and the lines they lost: a full or read-only disk drops lines, requests go on. */
  function renderAccessLog(a) {
    if (!a) {
      renderPairs('accesslog', [['file', 'off (icm/HTTP/logging_<xx>)']]);
      return;
    }
    var logs = a.logs || [a];
    var pairs = [];
    logs.forEach(function (l) {
      pairs.push([logs.length > 1 ? l.key : 'file', l.file]);
    });
    pairs.push(['writing', a.failure ? 'no: ' + a.failure + ' (lines are dropped until it can be written again)'
      : 'yes']);
    pairs.push(['dropped lines', a.dropped_lines]);
    renderPairs('accesslog', pairs);
    var td = document.querySelector('#accesslog td[data-field="writing"]');
    if (td && a.failure) {
      td.className = 'state-down';
    }
  }

  /**
   * The certificates each listener presents: rebuilt whole (a handful of rows), a listener whose changed files did
   * not open with its problem under it, a certificate that expires within 30 days marked.
   */
  function renderTls(t) {
    document.getElementById('tls-section').hidden = t.listeners.length === 0;
    var body = document.querySelector('#certificates tbody');
    clear(body);
    t.listeners.forEach(function (l) {
      l.certificates.forEach(function (c, i) {
        var row = el('tr');
        row.setAttribute('data-listener', l.listener);
        row.appendChild(el('td', i === 0 ? l.listener : ''));
        row.appendChild(el('td', c.subject + ' (' + c.alias + '), by ' + c.issuer));
        row.appendChild(el('td', c.names.join(', ') || '–'));
        row.appendChild(el('td', time(c.not_after) + (c.expires_in_days < 0 ? ': expired' : ', in '
            + c.expires_in_days + ' days'), c.expires_soon ? 'state-down' : 'state-up'));
        row.appendChild(el('td', i === 0 ? time(l.loaded_at) + ' from ' + l.files : ''));
        body.appendChild(row);
      });
      if (l.problem) {
        var problem = el('tr');
        problem.setAttribute('data-listener', l.listener);
        var td = el('td', 'not renewed: ' + l.problem + ' (the certificates above stay until a change opens)',
            'state-down');
        td.colSpan = 5;
        problem.appendChild(td);
        body.appendChild(problem);
      }
    });
  }

  function renderConfig(c) {
    var pairs = [];
    Object.keys(c.properties).forEach(function (k) {
      pairs.push([k, c.properties[k]]);
    });
    Object.keys(c.effective).forEach(function (k) {
      var v = c.effective[k];
      pairs.push([k + ' (in force)', Array.isArray(v) ? v.join(', ') : v]);
    });
    renderPairs('config', pairs);
    renderReload(c.reload);
    renderModification(c.modification || []);
  }

  /** The handlers of icm/HTTP/mod_<xx>, each with the lines of its action file as loaded. */
  function renderModification(handlers) {
    var box = document.getElementById('modification');
    clear(box);
    document.getElementById('modification-section').hidden = handlers.length === 0;
    handlers.forEach(function (h) {
      var handler = el('div', null, 'group');
      handler.setAttribute('data-handler', h.key);
      handler.appendChild(el('h3', h.key + ' = PREFIX=' + h.prefix + (h.file ? ', FILE=' + h.file : '')));
      handler.appendChild(el('div', h.path || 'no action file: nothing is modified', 'meta'));
      handler.appendChild(el('pre', h.lines.map(function (l) {
        return ('    ' + l.line).slice(-4) + '  ' + l.text;
      }).join('\n'), 'actions'));
      box.appendChild(handler);
    });
  }

  function renderReload(r) {
    var list = document.getElementById('reload-errors');
    document.getElementById('reload-button').disabled = !r;
    if (!r) {
      renderPairs('reload', [['file', 'none: not started from a file']]);
      return;
    }
    var pending = (r.pending_restart || []).map(function (p) {
      return p.key + ' (running ' + (p.running === null ? 'not set' : p.running) + ', file '
        + (p.file === null ? 'not set' : p.file) + ')';
    });
    renderPairs('reload', [
      ['file', r.file], ['watch', r.watch], ['loaded at', time(r.loaded_at)],
      ['last reload', r.outcome ? r.outcome + ' (' + r.trigger + ', ' + time(r.at) + ')' : 'none since startup'],
      ['outcome', r.outcome || ''],
      ['errors', (r.errors || []).length],
      ['needs a restart', pending.length ? pending.join('; ') : 'nothing']]);
    clear(list);
    (r.errors || []).forEach(function (e) {
      list.appendChild(el('li', e, 'error'));
    });
  }

  /** The levels set, a row each with its Reset button, and the levels in effect of the loggers looked for first. */
  function renderLogLevels(v) {
    var body = document.querySelector('#loglevels tbody');
    var keep = {};
    v.levels.forEach(function (l) {
      var id = 'loglevel-' + l.logger;
      keep[id] = true;
      var row = keyed(body, id, function () {
        var tr = el('tr');
        var reset = el('button', 'Reset');
        reset.type = 'button';
        reset.title = 'back to ' + l.logger + '\'s configured level now';
        reset.onclick = function () {
          setLogLevel(l.logger, 'reset', null);
        };
        ['logger', 'level', 'configured', 'until', 'by'].forEach(function (f) {
          tr.appendChild(el('td')).setAttribute('data-field', f);
        });
        tr.appendChild(el('td')).appendChild(reset);
        return tr;
      });
      setText(cell(row, 'logger'), l.logger);
      setText(cell(row, 'level'), l.level);
      setText(cell(row, 'configured'), l.configured || '–');
      setText(cell(row, 'until'), time(l.until) + ' (in ' + duration(l.expires_in_s * 1000) + ')');
      setText(cell(row, 'by'), l.by + ', ' + since(l.since) + ' ago');
    });
    prune(body, keep);
    setText(document.getElementById('loglevels-meta'), (v.changeable ? '' : 'this runtime\'s logging system ' +
        'cannot change levels; ') + 'kept ' + v.kept + '; ' + v.default_for + ' unless said, at most ' + v.max_for +
        '; in effect: ' + v.loggers.map(function (l) {
          return l.logger + ' ' + l.level;
        }).join(', '));
    var list = document.getElementById('loglevel-loggers');
    if (!list.children.length) {
      v.loggers.forEach(function (l) {
        list.appendChild(el('option')).value = l.logger;
      });
    }
  }

  function renderUrlMapping(v) {
    var box = document.getElementById('urlmapping');
    var keep = {};
    v.systems.forEach(function (m) {
      var id = 'mapping-' + (m.system || 'all');
      keep[id] = true;
      var div = keyed(box, id, function () {
        var d = el('div', null, 'mapping');
        d.appendChild(el('h3'));
        d.appendChild(el('div', null, 'meta source'));
        var prefixes = el('table', null, 'grid prefixes');
        prefixes.appendChild(el('thead')).appendChild(el('tr'));
        ['ICF prefix (ABAP)', 'case', 'from'].forEach(function (h) {
          prefixes.tHead.rows[0].appendChild(el('th', h));
        });
        prefixes.appendChild(el('tbody'));
        d.appendChild(prefixes);
        var groups = el('table', null, 'grid logon-groups');
        groups.appendChild(el('thead')).appendChild(el('tr'));
        ['logon group', 'type', 'URL prefixes'].forEach(function (h) {
          groups.tHead.rows[0].appendChild(el('th', h));
        });
        groups.appendChild(el('tbody'));
        d.appendChild(groups);
        return d;
      });
      setText(div.querySelector('h3'), (m.system ? 'system ' + m.system + ' · ' : '') + m.icf_prefixes.length +
          ' ICF prefixes, root URLs to ' + m.root_handler + ' (is/HTTP/default_root_hdl)');
      setText(div.querySelector('.source'), m.url ? 'loaded from ' + m.url + ' every ' + m.refresh + ', last at ' +
          time(m.loaded_at) + (m.last_error ? ' · last load failed: ' + m.last_error : '') :
          'icf.url_prefixes only (no icf.url_prefixes_url)');
      rows(div.querySelector('.prefixes tbody'), id + '-prefix-', m.icf_prefixes, function (p) {
        return [p.prefix, p.case_sensitive ? 'case-sensitive' : 'any case', p.source];
      });
      rows(div.querySelector('.logon-groups tbody'), id + '-group-', m.logon_groups, function (g) {
        return [g.name, g.type, g.url_prefixes.join(', ') || '–'];
      });
    });
    prune(box, keep);
  }

  /** Rows of plain cells, keyed by their first value, updated in place. */
  function rows(body, idPrefix, items, values) {
    var keep = {};
    items.forEach(function (item) {
      var v = values(item);
      var id = idPrefix + v[0].replace(/[^A-Za-z0-9_-]/g, '_');
      keep[id] = true;
      var row = keyed(body, id, function () {
        return el('tr');
      });
      v.forEach(function (text, i) {
        setText(cell(row, 'c' + i), text);
      });
    });
    prune(body, keep);
  }

  function svg(tag, attrs, text) {
    var e = document.createElementNS('http://www.w3.org/2000/svg', tag);
    Object.keys(attrs).forEach(function (k) {
      e.setAttribute(k, attrs[k]);
    });
    if (text !== undefined) {
      e.textContent = text;
    }
    return e;
  }

  /** Requests per second per server between consecutive samples, drawn over the last 10 minutes. */
  function renderChart(h) {
    var chart = document.getElementById('chart');
    clear(chart);
    var W = 900, H = 220, left = 44, right = 120, top = 10, bottom = 24;
    var samples = h.samples;
    var end = samples.length ? samples[samples.length - 1].t : 0;
    var start = end - 10 * 60 * 1000;
    var series = {};
    var max = 0;
    for (var i = 1; i < samples.length; i++) {
      var a = samples[i - 1], b = samples[i], dt = (b.t - a.t) / 1000;
      if (dt < 1) {
        continue; // the live point right after a sample: too short an interval for a rate
      }
      Object.keys(b.served).forEach(function (id) {
        var rate = Math.max(0, (b.served[id] - (a.served[id] || 0)) / dt);
        (series[id] = series[id] || []).push([b.t, rate]);
        max = Math.max(max, rate);
      });
    }
    max = max <= 0 ? 1 : max * 1.1;
    var x = function (t) { return left + (W - left - right) * Math.max(0, t - start) / (end - start || 1); };
    var y = function (v) { return top + (H - top - bottom) * (1 - v / max); };
    chart.appendChild(svg('line', {x1: left, y1: y(0), x2: W - right, y2: y(0), 'class': 'axis'}));
    chart.appendChild(svg('line', {x1: left, y1: top, x2: left, y2: y(0), 'class': 'axis'}));
    chart.appendChild(svg('text', {x: 4, y: top + 10}, max.toFixed(1)));
    chart.appendChild(svg('text', {x: 4, y: y(0)}, '0 /s'));
    chart.appendChild(svg('text', {x: left, y: H - 6}, '-10 min'));
    chart.appendChild(svg('text', {x: W - right - 24, y: H - 6}, 'now'));
    var row = 0;
    Object.keys(series).sort().forEach(function (id) {
      var points = series[id].map(function (p) {
        return x(p[0]).toFixed(1) + ',' + y(p[1]).toFixed(1);
      }).join(' ');
      chart.appendChild(svg('polyline', {points: points, stroke: color(id), 'data-server': id}));
      chart.appendChild(svg('rect', {x: W - right + 12, y: top + row * 16, width: 10, height: 10, fill: color(id)}));
      chart.appendChild(svg('text', {x: W - right + 28, y: top + 9 + row * 16}, id));
      row++;
    });
    if (samples.length < 2) {
      chart.appendChild(svg('text', {x: left + 10, y: top + 20}, 'collecting samples…'));
    }
  }

  /* ---- actions ---- */

  var CONFIRM = {
    drain: 'Drain server %s? It takes no new sessions; the sessions it holds continue.',
    disable: 'Disable server %s? It takes nothing more: requests of its sessions go to other servers.'
  };

  function act(id, action) {
    if (CONFIRM[action] && !window.confirm(CONFIRM[action].replace('%s', id))) {
      return;
    }
    showError(null);
    request('POST', 'api/servers/' + encodeURIComponent(id) + '/' + action, null, function (status, body) {
      if (status !== 200) {
        showError(action + ' ' + id + ' failed: ' + status + (body && body.error ? ': ' + body.error : ''));
      } else if (body && body.operator && body.operator.problem) {
        showError(action + ' ' + id + ' holds on this node, but is not kept: ' + body.operator.problem);
      }
      refresh(false);
    });
  }

  function reload() {
    showError(null);
    var result = document.getElementById('reload-result');
    setText(result, 'reading the configuration file…', 'result');
    request('POST', 'api/reload', null, function (status, body) {
      if (body && body.outcome) {
        setText(result, 'reload ' + body.outcome + ' at ' + time(body.at) + (body.errors.length ? ': ' +
            body.errors.join('; ') : ''), 'result' + (body.outcome === 'rejected' ? ' failed' : ''));
      } else {
        setText(result, '', 'result');
        showError('reload failed: ' + status + (body && body.error ? ': ' + body.error : ''));
      }
      refresh(true);
    });
  }

  function setLogLevel(logger, level, forHowLong) {
    showError(null);
    var body = {logger: logger, level: level};
    if (forHowLong) {
      body['for'] = forHowLong;
    }
    request('POST', 'api/loglevels', JSON.stringify(body), function (status, answer) {
      if (status !== 200) {
        showError('log level of ' + logger + ': ' + status + (answer && answer.error ? ': ' + answer.error : ''));
      } else if (answer.problem) {
        showError('the log level of ' + logger + ' holds on this node, but is not shared: ' + answer.problem);
      }
      if (answer && answer.levels) {
        renderLogLevels(answer);
      }
    });
  }

  function lookup(event) {
    event.preventDefault();
    var box = document.getElementById('lookup-result');
    var input = document.getElementById('lookup-value');
    request('POST', 'api/session', input.value, function (status, body) {
      clear(box);
      box.className = 'result';
      if (status !== 200 || !body) {
        box.className = 'result failed';
        box.appendChild(el('span', 'lookup failed: ' + status + (body && body.error ? ': ' + body.error : '')));
        return;
      }
      if (!body.findings.length) {
        box.appendChild(el('span', body.none, 'none'));
        return;
      }
      var table = box.appendChild(el('table', null, 'grid'));
      var head = table.appendChild(el('thead')).appendChild(el('tr'));
      ['system', 'server', 'state', 'binding', 'idle time left', ''].forEach(function (h) {
        head.appendChild(el('th', h));
      });
      var tbody = table.appendChild(el('tbody'));
      body.findings.forEach(function (f) {
        var tr = tbody.appendChild(el('tr', null, 'finding'));
        [['system', f.system || '–'], ['server', f.server || '(gone)'], ['state', f.state || '–'],
          ['binding', f.binding], ['idle_left', f.idle_left_ms === null ? '–' : duration(f.idle_left_ms)],
          ['note', f.note || '']].forEach(function (c) {
          var td = tr.appendChild(el('td', c[1]));
          td.setAttribute('data-field', c[0]);
        });
      });
      box.appendChild(el('div', 'read as ' + body.read_as.join(', '), 'muted'));
    });
  }

  /** The explanation as sentences, one term a line. */
  function explain(event) {
    event.preventDefault();
    var url = document.getElementById('explain-url').value;
    var box = document.getElementById('explain-result');
    request('GET', 'api/explain?url=' + encodeURIComponent(url), null, function (status, e) {
      clear(box);
      function line(field, term, text) {
        box.appendChild(el('dt', term)).setAttribute('data-field', field);
        box.appendChild(el('dd', text)).setAttribute('data-field', field);
      }
      if (!e || e.error) {
        line('error', 'answer', status + ': ' + (e && e.error ? e.error : 'no answer'));
        return;
      }
      if (e.system) {
        line('system', 'system', e.system);
      }
      line('path', 'path', e.path === null ? '(bad path)' : e.path);
      if (e.type) {
        line('type', 'stack', e.type + ' by ' + e.rule + (e.matched_prefix ? ' (' + e.matched_prefix + ')' : ''));
      }
      line('permission', 'URL filter', e.permission.verdict + (e.permission.rule ? ' by line ' +
          e.permission.rule.line + ' of ' + e.permission.rule.file + ': ' + e.permission.rule.text : ''));
      line('group', 'group', (e.group || '–') + (e.members.length ? ': ' + e.members.map(function (m) {
        return m.id + ' ' + m.state + (m.takes_new_requests ? '' : m.serves_its_sessions ?
            ' (its sessions only)' : ' (nothing)');
      }).join(', ') : ''));
      var s = e.session;
      var ids = [];
      if (s.jsessionid) { ids.push('JSESSIONID'); }
      if (s.saplb.length) { ids.push(s.saplb.length + ' saplb cookie(s)'); }
      if (s.sap_contextid) { ids.push('sap-contextid'); }
      if (s.sap_ext_sid) { ids.push('sap-ext-sid'); }
      line('session', 'session', ids.length ? ids.join(', ') : 'none: a first request');
      line('server', 'goes to', e.status === 200 ? e.server + ' (' + e.reason + (e.bound ? ', follows its session' :
          '') + ')' : 'nowhere: answered ' + e.status + ' (' + e.error + ')');
      if (e.target) {
        line('target', 'forwarded as', e.target);
      }
    });
  }

  /* ---- refreshing ---- */

  function load(path, render) {
    request('GET', path, null, function (status, body) {
      var ok = status === 200 && body;
      if (ok) {
        render(body);
      }
      loaded(path, ok, status);
    });
  }

  /** Reads the tables; the slow ones every SLOW_EVERY rounds or when `all`. */
  function refresh(all) {
    if (all || rounds % SLOW_EVERY === 0) {
      load('api/systems', renderSystems);
      load('api/discovery', renderDiscovery);
      load('api/config', renderConfig);
      load('api/urlmapping', renderUrlMapping);
      load('api/tls', renderTls);
    }
    rounds++;
    load('api/status', renderStatus);
    load('api/servers', renderServers);
    load('api/groups', renderGroups);
    load('api/sessiontable', renderSessionTable);
    load('api/history', renderChart);
    load('api/loglevels', renderLogLevels);
  }

  function schedule() {
    if (timer !== null) {
      clearInterval(timer);
      timer = null;
    }
    if (!paused) {
      timer = setInterval(function () {
        refresh(false);
      }, refreshMs);
    }
  }

  function togglePause() {
    paused = !paused;
    setText(document.getElementById('pause'), paused ? 'Resume' : 'Pause');
    document.body.classList.toggle('paused', paused);
    setText(document.getElementById('updated'), paused ? 'paused at ' + new Date().toLocaleTimeString() :
        'resuming…');
    schedule();
    if (!paused) {
      refresh(true);
    }
  }

  document.getElementById('explain-form').onsubmit = explain;
  document.getElementById('lookup-form').onsubmit = lookup;
  document.getElementById('loglevel-form').onsubmit = function (event) {
    event.preventDefault();
    setLogLevel(document.getElementById('loglevel-logger').value, document.getElementById('loglevel-level').value,
        document.getElementById('loglevel-for').value);
  };
  document.getElementById('reload-button').onclick = reload;
  document.getElementById('pause').onclick = togglePause;
  document.getElementById('refresh-now').onclick = function () {
    refresh(true);
  };
  document.getElementById('error-dismiss').onclick = function () {
    showError(null);
  };
  refresh(true);
  schedule();
}());
