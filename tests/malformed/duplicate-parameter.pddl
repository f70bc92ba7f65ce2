(define (domain duplicate-parameter)
  (:requirements :strips)
  (:predicates (on ?x ?y) (p ?x ?x))
  (:action stack
    :parameters (?x ?y ?x)
    :effect (on ?x ?y)))
