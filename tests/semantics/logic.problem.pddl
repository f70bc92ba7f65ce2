(define (problem logic-1) (:domain logic)
  (:objects a1 - a c1 - c b1 b2 - b)
  (:init (p a1) (= (n b1) 0) (= (n b2) 1) (= (m) 1))
  (:goal (and (r) (s a1) (q k b1))))
