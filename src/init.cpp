// Load-time setup: LIBLINEAR prints solver progress to stdout unless told
// otherwise; silence it once, before any thread can train.
#include <Rcpp.h>
#include <linear.h>

namespace {
void quiet(const char*) {}
}  // namespace

// [[Rcpp::export(.svf_init)]]
void svf_init() { set_print_string_function(&quiet); }
