#include "RcppRunner.h"

#include <Rcpp.h>
#include <RcppParallel.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>

namespace {

struct TaskWorker {
  const std::function<void(size_t)>& task;
  svf::ErrorSlot& errors;
  TaskWorker(const std::function<void(size_t)>& t, svf::ErrorSlot& e) : task(t), errors(e) {}
  void operator()(std::size_t begin, std::size_t end) const {
    for (std::size_t i = begin; i < end; ++i) {
      try {
        task(i);
      } catch (...) {
        errors.capture(i);
      }
    }
  }
};

// One task arena per thread count, kept for the life of the session.
// RcppParallel::parallelFor() builds and tears down an arena on every call;
// with the system's oneTBB each call then took longer than the one before
// (at 2 threads, fits of concrete took 2.7 times as long after 60 fits in
// one session; bench/session_bench.R).
// The arenas are never destroyed: TBB may be shut down before static
// destructors run.
tbb::task_arena& session_arena(int threads) {
  static std::mutex mutex;
  static auto* arenas = new std::map<int, std::unique_ptr<tbb::task_arena>>();
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<tbb::task_arena>& arena = (*arenas)[threads];
  if (!arena) arena.reset(new tbb::task_arena(threads));
  return *arena;
}

std::string format_seconds(double s) {
  char buf[32];
  if (s < 60) snprintf(buf, sizeof buf, "%.0fs", s);
  else if (s < 3600) snprintf(buf, sizeof buf, "%.0fm %02.0fs", std::floor(s / 60), std::fmod(s, 60));
  else snprintf(buf, sizeof buf, "%.0fh %02.0fm", std::floor(s / 3600), std::fmod(s / 60, 60));
  return buf;
}

}  // namespace

RcppRunner::RcppRunner(int num_threads, bool verbose, std::string label)
    : threads_(std::max(1, num_threads)), verbose_(verbose), label_(std::move(label)),
      start_(std::chrono::steady_clock::now()), stage_start_(start_), last_print_(start_) {}

void RcppRunner::run(size_t n, const std::function<void(size_t)>& task) {
  // Chunks bound the time between interrupt checks.
  const size_t chunk = static_cast<size_t>(threads_) * 16;
  svf::ErrorSlot errors;
  for (size_t begin = 0; begin < n; begin += chunk) {
    const size_t end = std::min(n, begin + chunk);
    TaskWorker worker(task, errors);
    if (threads_ == 1) worker(begin, end);
    else session_arena(threads_).execute([&] {
      tbb::parallel_for(tbb::blocked_range<size_t>(begin, end, 1),
                        [&](const tbb::blocked_range<size_t>& r) { worker(r.begin(), r.end()); });
    });
    errors.rethrow();
    Rcpp::checkUserInterrupt();
  }
}

void RcppRunner::progress(size_t done, size_t total, double share) {
  if (!verbose_ || total == 0) return;
  const auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - start_).count() < delay_) return;
  const double since = std::chrono::duration<double>(now - last_print_).count();
  if (done < total && printed_ && since < 0.5) return;
  last_print_ = now;
  const double elapsed = std::chrono::duration<double>(now - stage_start_).count();
  share = std::min(1.0, std::max(share, 1e-9));
  std::string eta = done < total ? ", about " + format_seconds(elapsed / share * (1 - share)) + " left"
                                 : " in " + format_seconds(elapsed);
  Rprintf("\r%s: %zu/%zu (%3.0f%%)%s   ", label_.c_str(), done, total, 100 * share, eta.c_str());
  printed_ = true;
  if (done == total) finish();
}

void RcppRunner::begin_stage(const std::string& label) {
  finish();
  label_ = label;
  stage_start_ = std::chrono::steady_clock::now();
}

void RcppRunner::finish() {
  if (printed_) Rprintf("\n");
  printed_ = false;
}
