(define (domain durative)
  (:requirements :durative-actions)
  (:predicates (p) (q))
  (:durative-action a
    :parameters ()
    :duration (= ?duration 2)
    :condition (at start (p))
    :effect (at end (q))))
