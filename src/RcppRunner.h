// TaskRunner for R: RcppParallel workers, in chunks, with the main thread
// checking for user interrupts and printing progress between chunks. Worker
// threads never touch the R API.
#ifndef SVFOREST_RCPPRUNNER_H
#define SVFOREST_RCPPRUNNER_H

#include <chrono>
#include <string>
#include "core/common/TaskRunner.h"

class RcppRunner : public svf::TaskRunner {
 public:
  RcppRunner(int num_threads, bool verbose, std::string label = "Growing trees");
  ~RcppRunner() { finish(); }  // ends the progress line also when interrupted
  void run(size_t n, const std::function<void(size_t)>& task) override;
  using svf::TaskRunner::progress;
  void progress(size_t done, size_t total, double share) override;
  void begin_stage(const std::string& label) override;
  void finish();
  // Progress stays hidden until a fit has run this long (quick fits print nothing).
  void set_delay(double seconds) { delay_ = seconds; }
  size_t threads() const override { return static_cast<size_t>(threads_); }

 private:
  int threads_;
  bool verbose_;
  std::string label_;
  // start_: the fit's (progress_delay counts from it); stage_start_: the
  // current stage's (its time estimate counts from it)
  std::chrono::steady_clock::time_point start_, stage_start_, last_print_;
  bool printed_ = false;
  double delay_ = 0;
};

#endif
