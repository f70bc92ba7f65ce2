(define (domain no-derived)
  (:requirements :strips)
  (:predicates (above ?x ?y) (on ?x ?y))
  (:derived (above ?x ?y) (on ?x ?y)))
