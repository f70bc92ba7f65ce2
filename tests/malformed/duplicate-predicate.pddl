(define (domain duplicate-predicate)
  (:requirements :strips)
  (:predicates (clear ?x) (on ?x ?y) (clear ?y))
  (:action a :parameters (?x) :effect (clear ?x)))
