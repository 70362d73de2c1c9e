// The engine's only contact with threads. The bindings implement it with
// RcppParallel and check for user interrupts between chunks on the main
// thread; the core stays free of R. Tasks must not depend on each other.
#ifndef SVFOREST_TASKRUNNER_H
#define SVFOREST_TASKRUNNER_H

#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <string>

namespace svf {

class TaskRunner {
 public:
  virtual ~TaskRunner() {}
  // Runs task(i) for i in [0, n), possibly in parallel. Rethrows on the
  // calling thread the exception of the lowest failing task.
  virtual void run(size_t n, const std::function<void(size_t)>& task) = 0;
  // Called on the main thread after each batch of tasks: `done` of `total`
  // tasks, and the share of the work done when tasks differ in cost.
  virtual void progress(size_t /*done*/, size_t /*total*/, double /*share*/) {}
  void progress(size_t done, size_t total) {
    progress(done, total, total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 1.0);
  }
  // Names the work the next progress() calls measure; its time estimate
  // starts afresh (a search stage, then the final fit).
  virtual void begin_stage(const std::string& /*label*/) {}
  // Threads run() may use.
  virtual size_t threads() const { return 1; }
};

// Runs everything on the calling thread (used by tests and as a fallback).
class SerialRunner : public TaskRunner {
 public:
  void run(size_t n, const std::function<void(size_t)>& task) override {
    for (size_t i = 0; i < n; ++i) task(i);
  }
};

// Collects the first exception (by task index) thrown inside worker threads.
class ErrorSlot {
 public:
  void capture(size_t task) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!error_ || task < task_) { error_ = std::current_exception(); task_ = task; }
  }
  void rethrow() {
    if (error_) { std::exception_ptr e = error_; error_ = nullptr; std::rethrow_exception(e); }
  }

 private:
  std::mutex mutex_;
  std::exception_ptr error_;
  size_t task_ = 0;
};

}  // namespace svf
#endif
