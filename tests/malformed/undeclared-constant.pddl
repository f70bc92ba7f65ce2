(define (domain undeclared-constant)
  (:requirements :strips)
  (:constants table)
  (:predicates (on ?x ?y))
  (:action put-down
    :parameters (?x)
    :effect (and (on ?x table) (on ?x floor))))
