#include "SubjectSampler.h"

#include <algorithm>

namespace svf {

namespace {

// The rows of each subject, increasing.
std::vector<std::vector<int>> subject_rows(const TrainingData& data) {
  std::vector<std::vector<int>> out(static_cast<size_t>(data.num_subjects));
  for (size_t r = 0; r < data.x->n_rows(); ++r) out[data.subject[r]].push_back(static_cast<int>(r));
  return out;
}

std::vector<int> rows_of(const std::vector<std::vector<int>>& rows, const std::vector<int>& subjects) {
  std::vector<int> out;
  for (int s : subjects) out.insert(out.end(), rows[s].begin(), rows[s].end());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

Sample draw_rows_sample(const TrainingData& data, SamplerType type, double fraction, Rng& rng,
                        bool weights_draw_rows) {
  if (!data.subject)
    return draw_sample(type, data.x->n_rows(), fraction, rng, data.weights, weights_draw_rows);
  const Sample drawn = draw_sample(type, static_cast<size_t>(data.num_subjects), fraction, rng);
  const std::vector<std::vector<int>> rows = subject_rows(data);
  Sample s;
  s.inbag = rows_of(rows, drawn.inbag);  // a subject drawn twice: its rows twice
  s.oob = rows_of(rows, drawn.oob);
  return s;
}

std::vector<int> take_choosing_subjects(const TrainingData& data, std::vector<int>& oob, double share, Rng& rng) {
  if (!data.subject) return take_choosing_rows(oob, share, rng);
  std::vector<int> subjects;  // the out-of-bag subjects, increasing
  for (int r : oob) subjects.push_back(data.subject[r]);
  std::sort(subjects.begin(), subjects.end());
  subjects.erase(std::unique(subjects.begin(), subjects.end()), subjects.end());
  const std::vector<int> chosen_subjects = take_choosing_rows(subjects, share, rng);
  std::vector<char> chosen(static_cast<size_t>(data.num_subjects), 0);
  for (int s : chosen_subjects) chosen[s] = 1;
  std::vector<int> choosing, scoring;
  for (int r : oob) (chosen[data.subject[r]] ? choosing : scoring).push_back(r);
  oob.swap(scoring);
  return choosing;
}

}  // namespace svf
