// Samples of subjects (`id`, issue #59): with several rows per subject
// (counting-process rows of time-varying covariates, split follow-up), a
// tree draws subjects, and every row of a drawn subject goes in (as many
// times as the subject is drawn), so the out-of-bag rows are whole
// subjects and no subject scores a tree that saw another of its rows.
#ifndef SVFOREST_SUBJECTSAMPLER_H
#define SVFOREST_SUBJECTSAMPLER_H

#include <vector>

#include "Sampler.h"
#include "common/Random.h"
#include "data/TrainingData.h"

namespace svf {

// The tree's sample: draw_sample() over the subjects (unweighted; R refuses
// case weights with `id`) expanded to their rows, in-bag and out-of-bag
// rows increasing. Without subjects, draw_sample() over the rows.
Sample draw_rows_sample(const TrainingData& data, SamplerType type, double fraction, Rng& rng,
                        bool weights_draw_rows);

// take_choosing_rows() by subject: round(share x subjects) of the subjects
// of the out-of-bag rows `oob` move, with all their rows, to the returned
// choosing rows. Without subjects, take_choosing_rows().
std::vector<int> take_choosing_subjects(const TrainingData& data, std::vector<int>& oob, double share, Rng& rng);

}  // namespace svf
#endif
