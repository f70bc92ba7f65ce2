(define (domain untyped)
  (:requirements :strips)
  (:predicates (p ?x))
  (:action a :parameters (?x) :effect (p ?x)))
