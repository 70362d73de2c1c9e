# svforest's default forest on the UCI image segmentation data: fit on a
# stratified two-thirds of the rows, report the model, its out-of-bag and
# test accuracy.
library(svforest)
data(segment, package = "svforest")

set.seed(754046)
train <- unlist(lapply(split(seq_len(nrow(segment)), segment$class),
                       function(i) sample(i, round(2 / 3 * length(i)))))
test <- setdiff(seq_len(nrow(segment)), train)

fit <- svforest(class ~ ., data = segment[train, ], seed = 1, num_threads = 2)
print(fit)
print(summary(fit))

pred <- predict(fit, segment[test, ])
cat(sprintf("\nOut-of-bag accuracy: %.2f%%; test accuracy on %d held-out rows: %.2f%%\n",
            100 * (1 - fit$oob_error), length(test), 100 * mean(pred == segment$class[test])))
print(table(predicted = pred, actual = segment$class[test]))
