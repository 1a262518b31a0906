/*
 * The portal page explains itself. Each time an iView's frame has loaded, this reads from the iView's page the server
 * that answered (where its session, and its count, live), then, when that server is new to the frame, asks jwd where
 * the iView's requests go now: a HEAD request of the iView, with the browser's cookies, whose X-Jwd-Route answer
 * names the system, the server and why.
 * Once every iView is explained, the summary says whether the iViews of one system share their server.
 */
(function () {
  'use strict';

  /** jwd's reasons (X-Jwd-Route: reason=...) in words; a reason not listed is shown as jwd wrote it. */
  var REASONS = {
    'balanced': 'nothing tied the request to a server: the balancer picked one',
    'session table': 'jwd\'s session table holds your JSESSIONID for it',
    'session table bind': 'the first request of your session here: balanced, and your JSESSIONID bound to it in ' +
        'the session table, for every request after',
    'session table (bound concurrently)': 'a request sent at the same time had just bound your JSESSIONID to it in ' +
        'the session table: this one followed',
    'session table (sap-ext-sid)': 'jwd\'s session table holds your sap-ext-sid for it',
    'saplb cookie': 'your saplb_* cookie names it (the load balancing cookie its Java server set)',
    'sap-contextid': 'your sap-contextid cookie names it (an ABAP session id carries its server\'s name)',
    'JSESSIONID server name': 'your JSESSIONID names it',
    'route suffix': 'your JSESSIONID\'s route suffix names it',
    'route suffix (learned)': 'your JSESSIONID\'s route suffix names it'
  };
  var variant = document.body.getAttribute('data-variant');
  var cards = Array.prototype.slice.call(document.querySelectorAll('article.iview'));

  function field(card, name) {
    return card.querySelector('[data-field="' + name + '"]');
  }

  function setText(element, text, className) {
    element.textContent = text;
    element.className = className || '';
  }

  /** X-Jwd-Route's "system=PRT; group=!J2EE; server=j2ee1; reason=balanced" as {system: 'PRT', ...}. */
  function parseRoute(header) {
    var route = {};
    (header || '').split('; ').forEach(function (part) {
      var eq = part.indexOf('=');
      if (eq > 0) {
        route[part.substring(0, eq)] = part.substring(eq + 1);
      }
    });
    return route;
  }

  function reasonInWords(reason) {
    if (REASONS[reason]) {
      return REASONS[reason];
    }
    if (reason && reason.indexOf('session table rebind from ') === 0) {
      return 'its session table binding named ' + reason.substring(26) + ', which takes no requests now: bound anew';
    }
    return reason || 'jwd gave no reason';
  }

  /** What the iView's page says of itself: the server that answered, and how its request came. */
  function facts(doc) {
    var body = doc.body;
    return {
      server: doc.getElementById('server').textContent,
      type: body.getAttribute('data-type'),
      created: body.getAttribute('data-created') === 'true',
      saplb: body.getAttribute('data-saplb') || ''
    };
  }

  function explain(card, frame) {
    var doc = frame.contentDocument;
    if (!doc || doc.jwdExplained || !doc.getElementById('count')) {
      return;
    }
    doc.jwdExplained = true;
    var iView = facts(doc);
    var first = card.getAttribute('data-first-server');
    if (!first) {
      card.setAttribute('data-first-server', iView.server);
      first = iView.server;
    }
    card.setAttribute('data-session-server', iView.server);
    card.setAttribute('data-type', iView.type);
    setText(field(card, 'session'), iView.server + (first !== iView.server
        ? ' (moved from ' + first + ': its session there is lost)'
        : iView.created ? ' (started by this load)' : ''), first !== iView.server ? 'state-down' : '');
    if (card.getAttribute('data-asked-server') === iView.server) {
      // the same server as when jwd was last asked: its answer stands, and the iView's load costs no more requests
      summarize();
      return;
    }
    card.setAttribute('data-asked-server', iView.server);
    card.removeAttribute('data-explained');
    // the iView's path without its query: a HEAD of ?click=1 would count a click
    fetch(frame.contentWindow.location.pathname, {method: 'HEAD', cache: 'no-store', credentials: 'same-origin'})
      .then(function (answer) {
        route(card, iView, answer.headers.get('X-Jwd-Route'), answer.headers.get('X-Served-By'));
      })
      .catch(function (e) {
        setText(field(card, 'reason'), 'could not ask jwd: ' + e, 'state-down');
      });
  }

  /** Where the iView's requests go now, and whether that is where its session is. */
  function route(card, iView, header, servedBy) {
    var r = parseRoute(header);
    var next = r.server || servedBy || '?';
    card.setAttribute('data-system', r.system || '');
    card.setAttribute('data-next-server', next);
    card.setAttribute('data-reason', r.reason || '');
    setText(field(card, 'next'), next + (r.system ? ' (system ' + r.system + ', group ' + r.group + ')' : ''));
    setText(field(card, 'reason'), header ? reasonInWords(r.reason)
        : 'jwd sent no X-Jwd-Route: jwd.debug_headers is off');
    setText(field(card, 'route'), header || '–', 'route');
    var verdict = field(card, 'verdict');
    if (next !== iView.server) {
      setText(verdict, 'lost: its requests now go to ' + next + ', where its count starts again; its session on ' +
          iView.server + ' is out of reach', 'verdict state-down');
    } else if (r.reason === 'balanced') {
      setText(verdict, 'by chance: nothing ties its requests to ' + iView.server + '; the next may go elsewhere',
          'verdict state-drained');
    } else {
      setText(verdict, 'kept: its requests reach its session', 'verdict state-up');
    }
    card.setAttribute('data-explained', 'true');
    summarize();
  }

  /** Once every iView is explained: do the Java iViews of each system share a server? */
  function summarize() {
    if (cards.some(function (c) { return c.getAttribute('data-explained') !== 'true'; })) {
      return;
    }
    var bySystem = {};
    cards.forEach(function (c) {
      if (c.getAttribute('data-type') === 'j2ee') {
        var system = c.getAttribute('data-system') || 'the system';
        (bySystem[system] = bySystem[system] || []).push(c);
      }
    });
    var lines = [];
    Object.keys(bySystem).forEach(function (system) {
      if (bySystem[system].length > 1) {
        lines.push(together(system, bySystem[system]));
      }
    });
    setText(document.getElementById('summary-text'), lines.join(' '));
    document.body.setAttribute('data-explained', 'true');
  }

  function together(system, group) {
    var names = group.map(function (c) { return c.getAttribute('data-name'); });
    var servers = group.map(function (c) { return c.getAttribute('data-session-server'); });
    var lost = group.filter(function (c) {
      return c.getAttribute('data-next-server') !== c.getAttribute('data-session-server');
    }).map(function (c) { return c.getAttribute('data-name'); });
    var one = servers.every(function (s) { return s === servers[0]; });
    var text = 'iViews ' + names.join(' and ') + ' of ' + system + ', loaded at the same time, are ' +
        (one ? 'on one server, ' + servers[0] + ': ' : 'split across ' + servers.join(' and ') + ': ');
    if (one && variant === 'with-table') {
      return text + 'jwd\'s session table keeps your JSESSIONID bound to ' + servers[0] + ', so requests sent at ' +
          'the same time, before any saplb_* cookie, all go there.';
    }
    if (one) {
      return text + 'by chance this time: no session table held your JSESSIONID in ' + system + ' yet.';
    }
    return text + 'no session table held your JSESSIONID yet, so jwd balanced each first request on its own; each ' +
        'server started a session under your one JSESSIONID and set its saplb_* cookie, and your browser keeps only ' +
        'the last. ' +
        (lost.length ? 'Lost: iView ' + lost.join(' and ') + '. ' : '') +
        'This is the race the temporary session table (SessionTableTimeout) exists for.';
  }

  cards.forEach(function (card) {
    var frame = card.querySelector('iframe');
    frame.addEventListener('load', function () {
      explain(card, frame);
    });
    // a frame that loaded before this script ran
    explain(card, frame);
  });
})();
