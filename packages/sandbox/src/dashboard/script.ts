/** How often the open dashboard asks whether anything changed. */
export const DASHBOARD_POLL_MS = 1000;

/**
 * `GET /sandbox/dashboard/app.js`: keeps the dashboard current without a
 * reload. It polls `data` with the ETag of what it shows (an unchanged
 * sandbox answers 304) and swaps in the sections the server rendered and
 * escaped, keeping open answer bodies open. No framework, no build step.
 */
export function dashboardScript(dataPath: string): string {
  return `(function () {
  'use strict';
  var version = document.body.getAttribute('data-version');
  var live = document.getElementById('live');
  var serviceTime = document.getElementById('service-time');
  function openDetails(section) {
    var open = [];
    section.querySelectorAll('details[open]').forEach(function (details) {
      var item = details.closest('[data-delivery-id]');
      var attempt = details.closest('li');
      if (item && attempt) open.push(item.getAttribute('data-delivery-id') + ' ' + Array.prototype.indexOf.call(attempt.parentNode.children, attempt));
    });
    return open;
  }
  function reopen(section, open) {
    open.forEach(function (key) {
      var parts = key.split(' ');
      section.querySelectorAll('[data-delivery-id]').forEach(function (item) {
        if (item.getAttribute('data-delivery-id') !== parts[0]) return;
        var attempt = item.querySelectorAll('ol.attempts > li')[Number(parts[1])];
        var details = attempt && attempt.querySelector('details');
        if (details) details.open = true;
      });
    });
  }
  function poll() {
    fetch(${JSON.stringify(dataPath)} + location.search, { cache: 'no-store', headers: version ? { 'if-none-match': version } : {} })
      .then(function (res) {
        if (res.status === 304) return;
        if (!res.ok) throw new Error('HTTP ' + res.status);
        version = res.headers.get('etag');
        return res.json().then(function (data) {
          Object.keys(data.html).forEach(function (name) {
            var section = document.querySelector('[data-section="' + name + '"]');
            if (!section) return;
            var open = openDetails(section);
            section.innerHTML = data.html[name];
            reopen(section, open);
          });
          if (serviceTime) serviceTime.textContent = data.snapshot.now.slice(11, 19);
          live.textContent = 'Live, updated ' + new Date().toLocaleTimeString();
        });
      })
      .catch(function () {
        live.textContent = 'Not updating: the sandbox does not answer';
      })
      .then(function () {
        setTimeout(poll, ${DASHBOARD_POLL_MS});
      });
  }
  setTimeout(poll, ${DASHBOARD_POLL_MS});
})();
`;
}
