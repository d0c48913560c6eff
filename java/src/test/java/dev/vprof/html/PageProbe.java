package dev.vprof.html;

/** The JavaScript the browser tests run in a loaded page: what a person would look at, as JSON. */
final class PageProbe {
    private PageProbe() {}

    /**
     * Every chart ({@code svg.chart}) with its drawn size and how many of its marks have a non-empty
     * box on screen; the verdict line; counts of img and script elements; the page's visible text.
     */
    static final String EXPRESSION = """
            (() => {
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
                paint: performance.getEntriesByType('paint').map(p => ({ name: p.name, ms: p.startTime }))
              };
            })()
            """;
}
