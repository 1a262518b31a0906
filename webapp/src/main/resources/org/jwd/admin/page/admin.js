/* jwd Web Administration: reads the JSON API and redraws the page every few seconds. Plain ES5 and the DOM:
   nothing is fetched but this interface's own API. Actions are POSTs carrying X-Jwd-Admin: 1, which the
   server requires (with the browser's Origin) so that no other site can act through an operator's browser. */
(function () {
  'use strict';

  var COLORS = ['#0969da', '#cf222e', '#1a7f37', '#9a6700', '#8250df', '#bf3989', '#0a7b83', '#6e7781'];
  var refreshMs = parseInt(document.body.getAttribute('data-refresh-ms'), 10) || 2000;
  var colorOf = {};
  /** Whether wdisp/system_<xx> systems are configured: only then are systems, and each server's, shown. */
  var systemsOn = false;

  function request(method, path, callback) {
    var xhr = new XMLHttpRequest();
    xhr.open(method, path, true);
    xhr.setRequestHeader('Accept', 'application/json');
    if (method !== 'GET') {
      xhr.setRequestHeader('X-Jwd-Admin', '1');
    }
    xhr.onreadystatechange = function () {
      if (xhr.readyState !== 4) {
        return;
      }
      var body = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch (e) {
        body = null;
      }
      callback(xhr.status, body);
    };
    xhr.send(null);
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

  function cell(row, text, cls, field) {
    var td = el('td', text, cls);
    if (field) {
      td.setAttribute('data-field', field);
    }
    row.appendChild(td);
    return td;
  }

  function clear(node) {
    while (node.firstChild) {
      node.removeChild(node.firstChild);
    }
  }

  function showError(message) {
    var box = document.getElementById('error');
    if (message) {
      box.textContent = message;
      box.hidden = false;
    } else {
      box.hidden = true;
    }
  }

  function color(id) {
    if (!colorOf[id]) {
      colorOf[id] = COLORS[Object.keys(colorOf).length % COLORS.length];
    }
    return colorOf[id];
  }

  function renderStatus(s) {
    var t = s.servers;
    document.getElementById('summary').textContent = t.total + ' servers: ' + t.up + ' up, ' + t.drained +
        ' drained, ' + t.down + ' down, ' + t.disabled + ' disabled (' + t.registered + ' registered) · ' +
        s.requests.served + ' requests served, ' + s.requests.in_flight + ' in flight, ' + s.requests.errors +
        ' errors · up ' + s.uptime_s + ' s';
    document.getElementById('updated').textContent = 'updated ' + new Date().toLocaleTimeString() +
        ', every ' + (refreshMs / 1000) + ' s';
  }

  function actionButton(server, action, label, disabled) {
    var b = el('button', label, 'action');
    b.id = action + '-' + server.id;
    b.setAttribute('data-server', server.id);
    b.setAttribute('data-action', action);
    b.disabled = disabled;
    b.onclick = function () {
      act(server.id, action);
    };
    return b;
  }

  /** Two significant digits: the figures are bucket bounds, good to a quarter. */
  function millis(ms) {
    return ms >= 10 ? String(Math.round(ms)) : ms.toPrecision(2);
  }

  function renderServers(servers) {
    var body = document.querySelector('#servers tbody');
    clear(body);
    // api/servers names each server's system only with systems; a registered server may be of none
    var withSystems = systemsOn || servers.some(function (s) {
      return s.system !== undefined;
    });
    document.getElementById('servers-system').hidden = !withSystems;
    servers.forEach(function (s) {
      var row = el('tr');
      row.id = 'server-' + s.id;
      var name = cell(row, s.id, null, 'id');
      name.title = (s.url || s.https_url) + (s.source === 'registry' ? ' (registered; expires in ' +
          Math.round(s.expires_in_ms / 1000) + ' s without a report)' : ' (configuration file)');
      if (s.source === 'registry') {
        name.appendChild(el('span', ' ⟳', 'muted'));
      }
      if (withSystems) {
        cell(row, s.system || '–', null, 'system').title = s.system ? 'system ' + s.system : 'of no system';
      }
      cell(row, s.type, null, 'type');
      cell(row, s.groups.join(', '), null, 'groups');
      cell(row, s.capacity, 'num', 'capacity');
      cell(row, s.route === null ? '–' : s.route + ' (' + s.route_source + ')', null, 'route');
      var state = cell(row, s.state, 'state state-' + s.state, 'state');
      if (s.https && s.url && s.https.state !== s.state) {
        // its HTTPS port is checked apart: the S groups go by that one
        state.appendChild(el('span', ' (HTTPS: ' + s.https.state + ')', 'muted'));
      }
      var load = cell(row, s.load.value === null ? '–' : s.load.value, 'num', 'load');
      load.title = s.load.measure + ' in ' + s.load.group + ' (' + s.load.strategy + ')';
      cell(row, s.in_flight, 'num', 'in_flight');
      cell(row, s.served, 'num', 'served');
      cell(row, s.stateless, 'num', 'stateless');
      cell(row, s.stateful, 'num', 'stateful');
      cell(row, s.errors, 'num', 'errors');
      var times = s.response_ms;
      var over = times ? 'p50 / p99 of ' + times.answers + ' answers in the last minute' : 'no answer in the last minute';
      cell(row, times ? millis(times.first_byte_p50) + ' / ' + millis(times.first_byte_p99) + ' ms' : '–', 'num',
          'first_byte').title = over;
      cell(row, times ? millis(times.last_byte_p50) + ' / ' + millis(times.last_byte_p99) + ' ms' : '–', 'num',
          'response').title = over;
      var check = cell(row, s.last_check, 'check', 'last_check');
      if (s.https && s.url) {
        check.title = 'HTTPS: ' + s.https.last_check;
      }
      var actions = cell(row, null, null, 'actions');
      actions.appendChild(actionButton(s, 'drain', 'Drain', s.admin_state === 'drained'));
      actions.appendChild(actionButton(s, 'disable', 'Disable', s.admin_state === 'disabled'));
      actions.appendChild(actionButton(s, 'enable', 'Enable', s.admin_state === 'enabled'));
      body.appendChild(row);
    });
  }

  function renderGroups(groups) {
    var box = document.getElementById('groups');
    clear(box);
    groups.forEach(function (g) {
      var div = el('div', null, 'group');
      // with systems every system has its own !J2EE, !DIAG and logon groups: the system tells them apart
      var system = g.system ? g.system + '-' : '';
      div.id = 'group-' + system + g.name + '-' + g.type + (g.secure ? '-secure' : '');
      if (g.system) {
        div.setAttribute('data-system', g.system);
      }
      div.appendChild(el('h3', (g.system ? g.system + ' · ' : '') + g.name +
          (g.kind === 'logon' ? ' (' + g.type + ')' : '')));
      // A logon group's favorite and members show its message server's view (qualities); what balances its
      // HTTP requests, and where the next one goes, is said beside it.
      var meta = g.kind === 'logon' ? 'logon group type ' + g.logon_group_type + ' (' + g.measure + '), ext. RFC ' +
          (g.ext_rfc ? 'TRUE' : 'FALSE') + ', prefixes ' + (g.url_prefixes.join(', ') || '–') +
          ' · HTTP by ' + g.strategy + ', next request: ' + (g.next_request || '–') :
          'internal group' + (g.strategy ? ' · ' + g.strategy + ' (' + g.measure + ')' : '');
      div.appendChild(el('div', meta, 'meta'));
      var fav = el('div', 'favorite: ');
      fav.appendChild(el('span', g.favorite || 'none (no server takes new requests)',
          g.favorite ? 'favorite' : 'muted'));
      div.appendChild(fav);
      var members = g.members.map(function (m) {
        return m.id + ' [' + m.state + ', ' + g.measure + ' ' + m.value + ', capacity ' + m.capacity + ']';
      });
      div.appendChild(el('div', members.length ? members.join(' · ') : 'no members', 'meta'));
      box.appendChild(div);
    });
  }

  /** The systems, shown only when wdisp/system_<xx> entries are configured. */
  function renderSystems(v) {
    systemsOn = v.systems.length > 0;
    document.getElementById('systems-section').hidden = !systemsOn;
    var body = document.querySelector('#systems tbody');
    clear(body);
    if (!systemsOn) {
      return;
    }
    document.getElementById('systems-meta').textContent = 'wdisp/system_conflict_resolution ' +
        v.conflict_resolution + (v.conflict_resolution === '1' ? ' (the first in entry order takes a request' +
        ' several meet)' : ' (systems that meet one request are refused)') + ' · jwd.default_system ' +
        (v.default_system || 'not set: a request no entry matches gets 404') +
        (v.overlaps.length ? ' · overlaps: ' + v.overlaps.join('; ') : '');
    v.systems.forEach(function (sys) {
      var row = el('tr');
      row.id = 'system-' + sys.sid;
      var sid = cell(row, sys.sid, null, 'sid');
      if (sys.by_default) {
        sid.appendChild(el('span', ' (default)', 'muted'));
      }
      var entries = cell(row, null, null, 'entries');
      sys.entries.forEach(function (e) {
        entries.appendChild(el('div', e.definition));
      });
      if (sys.external_servers.length) {
        entries.appendChild(el('div', 'EXTSRV ' + sys.external_servers.join(', ') + ', STICKY ' + sys.sticky,
            'muted'));
      }
      cell(row, sys.ssl_encrypt, 'num', 'ssl_encrypt');
      cell(row, sys.servers.join(', ') || '–', null, 'servers');
      cell(row, sys.groups.join(', '), null, 'groups');
      body.appendChild(row);
    });
  }

  function renderPairs(tableId, pairs) {
    var body = document.querySelector('#' + tableId + ' tbody');
    clear(body);
    pairs.forEach(function (p) {
      var row = el('tr');
      row.appendChild(el('th', p[0]));
      var td = el('td', p[1], typeof p[1] === 'number' ? 'num' : null);
      td.setAttribute('data-field', p[0]);
      row.appendChild(td);
      body.appendChild(row);
    });
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
        ['cluster state since', c.since + ' (' + (CLUSTER_STATES[c.state] || c.state) + ')'],
        ['cluster outages', c.outages], ['served locally', c.served_locally],
        ['carried over', c.carried_over]);
    }
    var p = t.persistence;
    pairs.push(['persistent', p ? 'yes: ' + p.directory + ' (SessionTable.disk_path)' : 'no: lost at a restart']);
    if (p) {
      pairs.push(['restored at start', p.restored + ' bindings at ' + p.restored_at + ', ' + p.dropped
        + ' dropped (idle past their timeout, or their server gone)'],
        ['last written', (p.last_flush || 'not yet') + (p.flush_failures ? ', ' + p.flush_failures + ' writes failed' : '')]);
    }
    renderPairs('sessiontable', pairs);
    var cell = document.querySelector('#sessiontable td[data-field="cluster"]');
    if (cell) {
      cell.className = 'state ' + (c.state === 'CONNECTED' ? 'state-up' : 'state-down');
    }
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
    clear(list);
    if (!r) {
      renderPairs('reload', [['file', 'none: not started from a file']]);
      return;
    }
    var pending = (r.pending_restart || []).map(function (p) {
      return p.key + ' (running ' + (p.running === null ? 'not set' : p.running) + ', file '
        + (p.file === null ? 'not set' : p.file) + ')';
    });
    renderPairs('reload', [
      ['file', r.file], ['watch', r.watch], ['loaded at', r.loaded_at],
      ['last reload', r.outcome ? r.outcome + ' (' + r.trigger + ', ' + r.at + ')' : 'none since startup'],
      ['outcome', r.outcome || ''],
      ['errors', (r.errors || []).length],
      ['needs a restart', pending.length ? pending.join('; ') : 'nothing']]);
    (r.errors || []).forEach(function (e) {
      list.appendChild(el('li', e, 'error'));
    });
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

  function act(id, action) {
    request('POST', 'api/servers/' + encodeURIComponent(id) + '/' + action, function (status, body) {
      if (status !== 200) {
        showError(action + ' ' + id + ' failed: ' + status + (body && body.error ? ' ' + body.error : ''));
      } else {
        showError(null);
      }
      refresh();
    });
  }

  function explain(event) {
    if (event) {
      event.preventDefault();
    }
    var url = document.getElementById('explain-url').value;
    request('GET', 'api/explain?url=' + encodeURIComponent(url), function (status, body) {
      document.getElementById('explain-result').textContent = body ? JSON.stringify(body, null, 2)
          : 'failed: ' + status;
    });
    return false;
  }

  function load(path, render) {
    request('GET', path, function (status, body) {
      if (status === 200 && body) {
        render(body);
        showError(null);
      } else {
        showError('GET ' + path + ' failed: ' + status);
      }
    });
  }

  function refresh() {
    load('api/systems', renderSystems);
    load('api/status', renderStatus);
    load('api/servers', renderServers);
    load('api/groups', renderGroups);
    load('api/sessiontable', renderSessionTable);
    load('api/history', renderChart);
    load('api/config', renderConfig);
  }

  document.getElementById('explain-form').onsubmit = explain;
  refresh();
  setInterval(refresh, refreshMs);
}());
