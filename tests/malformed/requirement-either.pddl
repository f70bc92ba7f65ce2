(define (domain either-no-typing)
  (:predicates (at ?x - (either a b)))
  (:action act :parameters (?x) :effect (at ?x)))
