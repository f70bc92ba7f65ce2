(define (domain)
  (:predicates (p))
  (:action a :effect (p)))
