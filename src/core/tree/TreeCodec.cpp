#include "TreeCodec.h"

#include <cstdint>

#include "SplitKinds.h"

namespace svf {

void put_varint(std::vector<unsigned char>& out, int value) {
  const uint32_t v = static_cast<uint32_t>(value);
  uint32_t z = (v << 1) ^ (value < 0 ? 0xffffffffu : 0u);
  while (z >= 0x80u) {
    out.push_back(static_cast<unsigned char>((z & 0x7fu) | 0x80u));
    z >>= 7;
  }
  out.push_back(static_cast<unsigned char>(z));
}

bool get_varints(const Bytes& b, long n, std::vector<int>& out) {
  out.clear();
  if (n >= 0) out.reserve(static_cast<size_t>(n));
  size_t pos = 0;
  while (pos < b.size) {
    uint32_t z = 0;
    for (int shift = 0;; shift += 7) {
      if (pos >= b.size) return false;
      const unsigned char c = b.data[pos++];
      // the fifth byte holds the last 4 bits and ends the value
      if (shift == 28 && (c & 0xf0u)) return false;
      z |= static_cast<uint32_t>(c & 0x7fu) << shift;
      if (!(c & 0x80u)) break;
    }
    const uint32_t v = (z >> 1) ^ (0u - (z & 1u));
    out.push_back(static_cast<int>(v));
    if (n >= 0 && static_cast<long>(out.size()) > n) return false;
  }
  return n < 0 || static_cast<long>(out.size()) == n;
}

bool get_leaf_varints(const Bytes& b, long n, bool shared_ok, std::vector<int>& out) {
  if (get_varints(b, n, out)) return true;
  if (!shared_ok || n < 2 || !get_varints(b, 1, out)) return false;
  out.assign(static_cast<size_t>(n), out[0]);
  return true;
}

bool get_split_kinds(const Bytes& b, long n, bool shared_ok, std::vector<int>& out) {
  if (!shared_ok || n < 2 || b.size != static_cast<size_t>(n + 3) / 4) return get_varints(b, n, out);
  out.resize(static_cast<size_t>(n));
  for (long i = 0; i < n; ++i) out[i] = ((b.data[i / 4] >> (2 * (i % 4))) & 3) - 1;
  return n % 4 == 0 || (b.data[b.size - 1] >> (2 * (n % 4))) == 0;
}

CompactTreeView view_of(const CompactTree& c) {
  CompactTreeView v;
  auto bytes = [](const std::vector<unsigned char>& x) {
    Bytes b;
    b.data = x.data();
    b.size = x.size();
    return b;
  };
  v.n_nodes = c.n_nodes;
  v.n_leaves = c.n_leaves;
  v.split_kind = bytes(c.split_kind);
  v.split_int = bytes(c.split_int);
  v.leaf_kind = bytes(c.leaf_kind);
  v.leaf_size = bytes(c.leaf_size);
  v.leaf_int_length = bytes(c.leaf_int_length);
  v.leaf_real_length = bytes(c.leaf_real_length);
  v.leaf_int = bytes(c.leaf_int);
  v.leaf_oob = bytes(c.leaf_oob);
  v.split_real = c.split_real.data();
  v.n_split_real = c.split_real.size();
  v.leaf_real = c.leaf_real.data();
  v.n_leaf_real = c.leaf_real.size();
  return v;
}

namespace {

// Oblique splits on at most kMaskBits predictors, ascending (PSVM's planes),
// store their predictors as one negative code, -(bit mask); any other
// split stores its integers as they are (an oblique split's first, its
// count, is positive).
const int kMaskBits = 31;

void put_split_ints(int kind, const int* ints, size_t p, std::vector<unsigned char>& out) {
  if (kind == kSplitOblique && p <= static_cast<size_t>(kMaskBits)) {
    uint32_t mask = 0;
    bool ascending = true;
    for (int k = 0; k < ints[0]; ++k) {
      if (k > 0 && ints[1 + k] <= ints[k]) ascending = false;
      if (ints[1 + k] >= 0 && ints[1 + k] < kMaskBits) mask |= 1u << ints[1 + k];
      else ascending = false;
    }
    if (ascending && mask > 0) {
      put_varint(out, -static_cast<int>(mask));
      return;
    }
  }
  const size_t n = split_int_length(kind, ints);
  for (size_t i = 0; i < n; ++i) put_varint(out, ints[i]);
}

// One value when every leaf has it, else one per leaf.
void put_leaf_varints(const std::vector<int>& values, std::vector<unsigned char>& out) {
  bool shared = !values.empty();
  for (int v : values) shared = shared && v == values[0];
  for (size_t l = 0; l < (shared ? 1 : values.size()); ++l) put_varint(out, values[l]);
}

}  // namespace

bool compact_tree(const Tree& t, size_t p, CompactTree& out) {
  out = CompactTree();
  out.n_nodes = static_cast<int>(t.left_child.size());
  out.n_leaves = static_cast<int>(t.leaf_kind.size());
  bool packed = out.n_nodes > 1;
  for (int k : t.split_kind) packed = packed && k >= -1 && k <= 2;
  if (packed) {
    out.split_kind.assign((t.split_kind.size() + 3) / 4, 0);
    for (size_t i = 0; i < t.split_kind.size(); ++i)
      out.split_kind[i / 4] |= static_cast<unsigned char>((t.split_kind[i] + 1) << (2 * (i % 4)));
  } else {
    for (int k : t.split_kind) put_varint(out.split_kind, k);
  }
  // split integers in preorder (the order decoding reads them in)
  std::vector<int> stack(out.n_nodes > 0 ? 1 : 0, 0);
  while (!stack.empty()) {
    const int node = stack.back();
    stack.pop_back();
    if (t.split_kind[node] == -1) continue;
    put_split_ints(t.split_kind[node], t.split_int.data() + t.split_int_start[node], p, out.split_int);
    stack.push_back(t.right_child[node]);
    stack.push_back(t.left_child[node]);
  }
  out.split_real = t.split_real;
  const size_t L = t.leaf_kind.size();
  std::vector<int> int_length(L), real_length(L);
  for (size_t l = 0; l < L; ++l) {
    put_varint(out.leaf_size, t.leaf_size[l]);
    const long int_end = l + 1 < L ? t.leaf_int_start[l + 1] : static_cast<long>(t.leaf_int.size());
    const long real_end = l + 1 < L ? t.leaf_real_start[l + 1] : static_cast<long>(t.leaf_real.size());
    int_length[l] = static_cast<int>(int_end - t.leaf_int_start[l]);
    real_length[l] = static_cast<int>(real_end - t.leaf_real_start[l]);
  }
  put_leaf_varints(t.leaf_kind, out.leaf_kind);
  put_leaf_varints(int_length, out.leaf_int_length);
  put_leaf_varints(real_length, out.leaf_real_length);
  for (int v : t.leaf_int) put_varint(out.leaf_int, v);
  for (int v : t.leaf_oob) put_varint(out.leaf_oob, v);
  out.leaf_real = t.leaf_real;
  // kept only when it decodes to the same tree, array for array
  Tree back;
  if (!expand_tree(view_of(out), p, back).empty()) return false;
  return back.left_child == t.left_child && back.right_child == t.right_child && back.leaf_id == t.leaf_id &&
         back.split_kind == t.split_kind && back.split_int_start == t.split_int_start &&
         back.split_real_start == t.split_real_start && back.split_int == t.split_int &&
         back.leaf_kind == t.leaf_kind && back.leaf_size == t.leaf_size && back.leaf_oob == t.leaf_oob &&
         back.leaf_int_start == t.leaf_int_start && back.leaf_real_start == t.leaf_real_start &&
         back.leaf_int == t.leaf_int;
}

std::string derive_nodes(const std::vector<int>& split_kind, long n_leaves, std::vector<int>& left,
                         std::vector<int>& right, std::vector<int>& leaf_id) {
  const size_t N = split_kind.size();
  left.assign(N, -1);
  right.assign(N, -1);
  leaf_id.assign(N, -1);
  if (N == 0) return "a tree has no nodes";
  std::vector<int> stack(1, 0);
  size_t next = 1;
  long leaves = 0;
  while (!stack.empty()) {
    const int node = stack.back();
    stack.pop_back();
    if (split_kind[node] == -1) {
      if (leaves >= n_leaves) return "the tree has more leaves than it says";
      leaf_id[node] = static_cast<int>(leaves++);
      continue;
    }
    if (next + 2 > N) return "the nodes do not form a tree";
    left[node] = static_cast<int>(next);
    right[node] = static_cast<int>(next + 1);
    next += 2;
    stack.push_back(right[node]);
    stack.push_back(left[node]);
  }
  if (next != N) return "the nodes do not form a tree";
  if (leaves != n_leaves) return "the tree has fewer leaves than it says";
  return "";
}

namespace {

// The split integers (from their codes, put_split_ints()) and payload
// offsets, in preorder of the split nodes (reals: the payloads' doubles,
// n_real of them).
std::string split_offsets(const std::vector<int>& left, size_t p, const std::vector<int>& codes,
                          const double* reals, size_t n_real, Tree& t) {
  const size_t N = t.split_kind.size();
  t.split_int.clear();
  t.split_int.reserve(codes.size());
  t.split_int_start.assign(N, -1);
  t.split_real_start.assign(N, -1);
  size_t cpos = 0, rpos = 0;
  std::vector<int> stack(1, 0);
  while (!stack.empty()) {
    const int node = stack.back();
    stack.pop_back();
    const int kind = t.split_kind[node];
    if (kind == -1) continue;
    const std::string at = "node " + std::to_string(node) + ": ";
    if (cpos >= codes.size()) return at + "split payloads are out of range";
    const size_t ipos = t.split_int.size();
    if (kind == kSplitOblique && codes[cpos] < 0) {
      if (codes[cpos] < -2147483647 || p > static_cast<size_t>(kMaskBits)) return at + "oblique split predictors out of range";
      const uint32_t mask = static_cast<uint32_t>(-codes[cpos++]);
      t.split_int.push_back(0);
      for (int j = 0; j < kMaskBits; ++j)
        if ((mask >> j) & 1u) t.split_int.push_back(j);
      t.split_int[ipos] = static_cast<int>(t.split_int.size() - ipos - 1);
    } else {
      const std::string problem = check_split(kind, codes.data() + cpos, codes.size() - cpos, reals + rpos, n_real - rpos, p);
      if (!problem.empty()) return at + problem;
      const size_t n = split_int_length(kind, codes.data() + cpos);
      t.split_int.insert(t.split_int.end(), codes.begin() + cpos, codes.begin() + cpos + n);
      cpos += n;
    }
    const int* ints = t.split_int.data() + ipos;
    const std::string problem = check_split(kind, ints, t.split_int.size() - ipos, reals + rpos, n_real - rpos, p);
    if (!problem.empty()) return at + problem;
    t.split_int_start[node] = static_cast<int>(ipos);
    t.split_real_start[node] = static_cast<int>(rpos);
    rpos += split_real_length(kind, ints, p);
    stack.push_back(left[node] + 1);
    stack.push_back(left[node]);
  }
  if (cpos != codes.size() || rpos != n_real) return "split payloads do not fill their arrays";
  return "";
}

// Leaf payload offsets: running sums of their lengths.
std::string leaf_offsets(const std::vector<int>& lengths, size_t total, std::vector<int>& start) {
  start.resize(lengths.size());
  long long pos = 0;
  for (size_t l = 0; l < lengths.size(); ++l) {
    if (lengths[l] < 0) return "a leaf payload has a negative length";
    start[l] = static_cast<int>(pos);
    pos += lengths[l];
    if (pos > static_cast<long long>(total)) return "leaf payloads are out of range";
  }
  if (pos != static_cast<long long>(total)) return "leaf payloads do not fill their arrays";
  return "";
}

}  // namespace

std::string expand_tree(const CompactTreeView& c, size_t p, Tree& t, bool copy_reals) {
  t = Tree();
  if (c.n_nodes < 1 || c.n_leaves < 1 || c.n_nodes > 2147483646L || c.n_leaves > c.n_nodes)
    return "node or leaf count out of range";
  if (!get_split_kinds(c.split_kind, c.n_nodes, c.shared_ok, t.split_kind)) return "split kinds are damaged";
  std::vector<int> codes;
  if (!get_varints(c.split_int, -1, codes)) return "split integers are damaged";
  if (copy_reals) t.split_real.assign(c.split_real, c.split_real + c.n_split_real);
  std::vector<int> int_length, real_length;
  if (!get_leaf_varints(c.leaf_kind, c.n_leaves, c.shared_ok, t.leaf_kind) ||
      !get_varints(c.leaf_size, c.n_leaves, t.leaf_size) ||
      !get_leaf_varints(c.leaf_int_length, c.n_leaves, c.shared_ok, int_length) ||
      !get_leaf_varints(c.leaf_real_length, c.n_leaves, c.shared_ok, real_length) ||
      !get_varints(c.leaf_int, -1, t.leaf_int))
    return "leaf arrays are damaged";
  if (c.leaf_oob.size > 0 && !get_varints(c.leaf_oob, c.n_leaves, t.leaf_oob))
    return "out-of-bag counts are damaged";
  if (copy_reals) t.leaf_real.assign(c.leaf_real, c.leaf_real + c.n_leaf_real);
  std::string problem = derive_nodes(t.split_kind, c.n_leaves, t.left_child, t.right_child, t.leaf_id);
  if (problem.empty()) problem = split_offsets(t.left_child, p, codes, c.split_real, c.n_split_real, t);
  if (problem.empty()) problem = leaf_offsets(int_length, t.leaf_int.size(), t.leaf_int_start);
  if (problem.empty()) problem = leaf_offsets(real_length, c.n_leaf_real, t.leaf_real_start);
  return problem;
}

}  // namespace svf
