(define (domain unknown-key)
  (:requirements :strips)
  (:predicates (p) (q))
  (:action a
    :pre (p)
    :effect (q)))
