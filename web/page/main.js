// main.js: starts the page: reads the embedded report and page facts and draws the kind of page
// they are (sweep.js, trace.js, compare.js). Runs last.
(function (CP) {
  'use strict';
  const report = CP.data('cp-report');
  const page = CP.data('cp-page') || {};
  const app = document.getElementById('cp-app');
  const draw = { sweep: CP.sweep, trace: CP.trace, compare: CP.compare }[page.kind];
  if (report && app && draw) {
    try {
      draw(report, page, app);
      document.body.classList.add('cp-ready');
    } catch (e) {
      app.replaceChildren(CP.h('p', { class: 'cp-note' }, 'The pictures failed to draw (' + e.message +
        '); the tables below hold every number.'));
      throw e;
    }
  }
})(window.CP = window.CP || {});
