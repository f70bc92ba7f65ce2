(define (domain no-conditional)
  (:requirements :strips)
  (:predicates (p) (q))
  (:action a :effect (when (p) (q))))
