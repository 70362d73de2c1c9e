// Named parameters of the engine's parts, as the bindings read them from R
// (already checked there). A part's factory reads only its own parameters.
#ifndef SVFOREST_PARAMS_H
#define SVFOREST_PARAMS_H

#include <map>
#include <string>
#include <vector>

namespace svf {

class Params {
 public:
  virtual ~Params() {}
  virtual bool has(const std::string& name) const = 0;
  // Each getter throws std::invalid_argument when the parameter is missing.
  virtual std::vector<double> numbers(const std::string& name) const = 0;
  virtual std::string text(const std::string& name) const = 0;
  double number(const std::string& name) const { return numbers(name).at(0); }
  // A whole number; R's NA reads as INT_MIN (the "automatic" value).
  int integer(const std::string& name) const;
  bool flag(const std::string& name) const { return number(name) != 0.0; }
};

// Another parameter set with some numbers replaced (TD-SVM's grid points).
class OverrideParams : public Params {
 public:
  explicit OverrideParams(const Params& base) : base_(base) {}
  void set(const std::string& name, double value) { numbers_[name] = std::vector<double>(1, value); }
  bool has(const std::string& name) const override { return numbers_.count(name) || base_.has(name); }
  std::vector<double> numbers(const std::string& name) const override {
    auto it = numbers_.find(name);
    return it != numbers_.end() ? it->second : base_.numbers(name);
  }
  std::string text(const std::string& name) const override { return base_.text(name); }

 private:
  const Params& base_;
  std::map<std::string, std::vector<double>> numbers_;
};

}  // namespace svf
#endif
