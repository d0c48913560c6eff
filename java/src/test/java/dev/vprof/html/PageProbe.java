package dev.vprof.html;

/** The JavaScript the browser tests run in a loaded page: what a person would look at, as JSON. */
final class PageProbe {
    private PageProbe() {}

    /**
     * Every chart ({@code svg.chart}) with its drawn size and how many of its marks have a non-empty
     * box on screen; the verdict line; counts of img and script elements; the page's visible text.
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
                paint: performance.getEntriesByType('paint').map(p => ({ name: p.name, ms: p.startTime })),
                load: performance.getEntriesByType('navigation').map(n => n.loadEventEnd)[0] || -1
              };
            })()
            """;
}
