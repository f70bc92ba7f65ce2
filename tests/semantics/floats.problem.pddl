(define (problem floats-1) (:domain floats)
  (:init (= (x) 0) (= (y) 0) (= (k) 1))
  (:goal (and (done) (cold) (<= (y) -0.5))))
