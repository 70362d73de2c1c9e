// A description of one split's or leaf's payload: its named fields, for R's
// tree accessors, summary() and plot() (which then decode no layout). Each
// kind describes its own payload (tree/SplitKinds.h, leaves/LeafModel.h).
#ifndef SVFOREST_PAYLOAD_H
#define SVFOREST_PAYLOAD_H

#include <cstddef>
#include <string>
#include <vector>

namespace svf {

struct PayloadField {
  enum Type { Int, Real, Logical };
  std::string name;
  Type type = Int;
  std::vector<int> ints;      // Int and Logical
  std::vector<double> reals;  // Real
  std::vector<int> dim;       // rows, columns for a (column-major) matrix; empty for a vector
  // Offset of the values in the payload's integers (Int, Logical) or doubles
  // (Real) when they are stored there as given; -1 when derived.
  long at = -1;
};

class PayloadDescription {
 public:
  std::vector<PayloadField> fields;

  // n stored integers from offset `at` of the payload's integers
  PayloadField& ints(const std::string& name, const int* payload, long at, size_t n) {
    PayloadField& f = add(name, PayloadField::Int, at);
    f.ints.assign(payload + at, payload + at + n);
    return f;
  }
  PayloadField& reals(const std::string& name, const double* payload, long at, size_t n) {
    PayloadField& f = add(name, PayloadField::Real, at);
    f.reals.assign(payload + at, payload + at + n);
    return f;
  }
  PayloadField& matrix(const std::string& name, const double* payload, long at, int rows, int cols) {
    PayloadField& f = reals(name, payload, at, static_cast<size_t>(rows) * cols);
    f.dim = {rows, cols};
    return f;
  }
  PayloadField& flag(const std::string& name, bool value, long at = -1) {
    PayloadField& f = add(name, PayloadField::Logical, at);
    f.ints.assign(1, value ? 1 : 0);
    return f;
  }
  // derived values (not stored as such)
  PayloadField& derived_ints(const std::string& name, std::vector<int> values) {
    PayloadField& f = add(name, PayloadField::Int, -1);
    f.ints = std::move(values);
    return f;
  }
  PayloadField& derived_reals(const std::string& name, std::vector<double> values) {
    PayloadField& f = add(name, PayloadField::Real, -1);
    f.reals = std::move(values);
    return f;
  }
  const PayloadField* find(const std::string& name) const {
    for (const PayloadField& f : fields)
      if (f.name == name) return &f;
    return nullptr;
  }

 private:
  PayloadField& add(const std::string& name, PayloadField::Type type, long at) {
    fields.emplace_back();
    fields.back().name = name;
    fields.back().type = type;
    fields.back().at = at;
    return fields.back();
  }
};

}  // namespace svf
#endif
