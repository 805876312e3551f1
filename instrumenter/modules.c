/* The table of modules (modules.h): the one place that lists them. */
#include "modules.h"

const struct module *const pomp_modules[] = {
    &inst_levels_module,     /* first: the others look levels up in its state */
    &pomp_directives_module,
    &api_calls_module,
    &functions_module,
};
const size_t pomp_nmodules = sizeof pomp_modules / sizeof pomp_modules[0];
