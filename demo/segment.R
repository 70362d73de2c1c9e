# Random support vector trees on the UCI image segmentation data: fit on a
# stratified two-thirds of the rows, report the model and its test accuracy.
library(svforest)
data(segment, package = "svforest")

set.seed(754046)
train <- unlist(lapply(split(seq_len(nrow(segment)), segment$class),
                       function(i) sample(i, round(2 / 3 * length(i)))))
test <- setdiff(seq_len(nrow(segment)), train)

fit <- svforest(class ~ ., data = segment[train, ], method = "rsvt", ntree = 10,
                seed = 1, num_threads = 2)
print(fit)
print(summary(fit))

pred <- predict(fit, segment[test, ])
cat(sprintf("\nTest accuracy of RSVT on %d held-out rows: %.2f%%\n",
            length(test), 100 * mean(pred == segment$class[test])))
print(table(predicted = pred, actual = segment$class[test]))
