package dev.vprof.html;

/** The JavaScript the browser tests run in a loaded page: what a person would look at, as JSON. */
final class PageProbe {
    private PageProbe() {}

    /**
     * Every chart ({@code svg.chart}) with its drawn size and how many of its marks have a non-empty
     * box on screen; the verdict line; counts of img and script elements; the page's visible text;
     * its tables by id, the verdict's Next: steps, the queue facts and what is marked bad (red).
     */
    static final String EXPRESSION = """
            (async () => {
              // The first paint can come after the load event on a busy machine: wait for it (5 s at most).
              for (let i = 0; i < 100 && performance.getEntriesByName('first-contentful-paint').length === 0; i++) {
                await new Promise(r => setTimeout(r, 50));
              }
              const charts = Array.from(document.querySelectorAll('svg.chart')).map(svg => {
                const box = svg.getBoundingClientRect();
                const marks = Array.from(svg.querySelectorAll('.mark')).filter(m => {
                  const b = m.getBoundingClientRect();
                  return b.width > 0 && b.height > 0;
                }).length;
                const section = svg.closest('section');
                return { section: section ? section.id : '', width: box.width, height: box.height, marks: marks };
              });
              const verdict = document.querySelector('#verdict .verdict-title');
              return {
                ready: document.body.getAttribute('data-ready'),
                verdict: verdict ? verdict.textContent : '',
                charts: charts,
                images: document.querySelectorAll('img').length,
                scripts: document.scripts.length,
                handlers: Array.from(document.querySelectorAll('*')).filter(e =>
                  Array.from(e.attributes).some(a => a.name.startsWith('on'))).length,
                text: document.body.innerText,
                // Every table with an id, as shown: per body row, per cell its number (data-v) or its text,
                // and its hover text.
                tables: Object.fromEntries(Array.from(document.querySelectorAll('table[id]')).map(t => [t.id,
                  Array.from(t.tBodies.length ? t.tBodies[0].rows : []).map(r => Array.from(r.cells).map(c =>
                    ({ v: c.hasAttribute('data-v') ? c.getAttribute('data-v') : c.textContent, text: c.textContent,
                       title: c.getAttribute('title') || '' })))])),
                next: Array.from(document.querySelectorAll('ul.next li')).map(li => li.textContent),
                queueFacts: (document.getElementById('queue-facts') || { textContent: '' }).textContent,
                bad: Array.from(document.querySelectorAll('.bad')).map(e => e.textContent),
                paint: performance.getEntriesByType('paint').map(p => ({ name: p.name, ms: p.startTime })),
                load: performance.getEntriesByType('navigation').map(n => n.loadEventEnd)[0] || -1
              };
            })()
            """;

    /**
     * Drags across the timeline from a quarter to a half of its width (as a mouse would), then
     * clicks the kernel table's count header twice; returns the plot's viewBox before and after
     * the drag, the readout, and the count column after each click.
     */
    static final String INTERACT = """
            (() => {
              const svg = document.querySelector('svg.timeline');
              const plot = svg.querySelector('svg.plot');
              const hit = svg.querySelector('rect.hit');
              const before = plot.getAttribute('viewBox');
              const box = hit.getBoundingClientRect();
              const at = f => ({ clientX: box.left + f * box.width, clientY: box.top + box.height / 2, bubbles: true });
              hit.dispatchEvent(new MouseEvent('mousedown', at(0.25)));
              window.dispatchEvent(new MouseEvent('mousemove', at(0.4)));
              window.dispatchEvent(new MouseEvent('mouseup', at(0.5)));
              const after = plot.getAttribute('viewBox');
              const readout = document.getElementById('tl-range').textContent;
              const table = document.getElementById('kernel-table');
              const counts = () => Array.from(table.tBodies[0].rows).map(r => parseFloat(r.cells[1].getAttribute('data-v')));
              const head = table.tHead.rows[0].cells[1];
              head.click();
              const first = counts();
              head.click();
              const second = counts();
              document.getElementById('tl-reset').click();
              return { before: before, after: after, readout: readout, reset: plot.getAttribute('viewBox'),
                       first: first, second: second };
            })()
            """;
}
