// Load-time setup: LIBLINEAR and LIBSVM print solver progress to stdout
// unless told otherwise; silence both once, before any thread can train.
#include <Rcpp.h>
#include <linear.h>
#include <svm.h>

namespace {
void quiet(const char*) {}
}  // namespace

// [[Rcpp::export(.svf_init)]]
void svf_init() {
  set_print_string_function(&quiet);
  svm_set_print_string_function(&quiet);
}
