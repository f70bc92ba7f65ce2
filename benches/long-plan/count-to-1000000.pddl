(define (problem count-to-1000000)
  (:domain counter)
  (:init (ready) (= (count) 0))
  (:goal (>= (count) 1000000)))
