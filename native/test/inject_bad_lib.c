/* A library that cannot be loaded with RTLD_NOW: it needs a symbol nobody defines. */
extern int vprof_symbol_that_does_not_exist(void);
int inject_bad_function(void) { return vprof_symbol_that_does_not_exist(); }
