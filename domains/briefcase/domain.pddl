;; Briefcase world: conditional effects.
;;
;; Items (portables) lie at locations; a single briefcase moves between
;; locations. (briefcase-at ?l) where the briefcase is, (at ?x ?l) where
;; item ?x is, (in ?x) item ?x is inside the briefcase. Moving the
;; briefcase carries every item inside it along: a `forall` over the
;; items with a `when` on (in ?x), so one move action updates any number
;; of items. Putting an item in requires it to be at the briefcase's
;; location; taking it out leaves it where the briefcase is. Every action
;; costs 1.
;; Problems: `plan generate briefcase --locations L --items K --seed S`.
(define (domain briefcase)
  (:requirements :typing :negative-preconditions :equality :conditional-effects)
  (:types location portable)
  (:predicates
    (briefcase-at ?l - location)
    (at ?x - portable ?l - location)
    (in ?x - portable))

  (:action move
    :parameters (?from ?to - location)
    :precondition (and (briefcase-at ?from) (not (= ?from ?to)))
    :effect (and (briefcase-at ?to) (not (briefcase-at ?from))
                 (forall (?x - portable)
                   (when (in ?x)
                     (and (at ?x ?to) (not (at ?x ?from)))))))

  (:action put-in
    :parameters (?x - portable ?l - location)
    :precondition (and (at ?x ?l) (briefcase-at ?l) (not (in ?x)))
    :effect (in ?x))

  (:action take-out
    :parameters (?x - portable)
    :precondition (in ?x)
    :effect (not (in ?x))))
