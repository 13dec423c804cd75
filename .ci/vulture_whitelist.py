# ruff: noqa: B018  (a whitelist is bare attribute reads by design)
"""Names vulture (60 %) takes for unused that something outside Python's own calls reads.

Passed to vulture by ``make lint``; never imported. A name listed here is used wherever it
appears, so list a name only when every finding of it is of the kind its comment says.
"""

_ = object()

# Django and its apps (axes, whitenoise, drf-spectacular, csp) read these settings.
_.ALLOWED_HOSTS, _.AUTHENTICATION_BACKENDS, _.AUTH_PASSWORD_VALIDATORS, _.CACHES, _.CONTENT_SECURITY_POLICY
_.AXES_CLIENT_IP_CALLABLE, _.AXES_HANDLER, _.AXES_LOCKOUT_CALLABLE, _.AXES_LOCKOUT_PARAMETERS
_.AXES_RESET_ON_SUCCESS, _.AXES_USERNAME_CALLABLE, _.CSRF_COOKIE_SECURE, _.CSRF_TRUSTED_ORIGINS
_.DATA_UPLOAD_MAX_MEMORY_SIZE, _.DEFAULT_AUTO_FIELD, _.DEFAULT_FROM_EMAIL, _.EMAIL_BACKEND, _.EMAIL_HOST
_.EMAIL_HOST_PASSWORD, _.EMAIL_HOST_USER, _.EMAIL_PORT, _.EMAIL_TIMEOUT, _.EMAIL_USE_SSL, _.EMAIL_USE_TLS
_.INSTALLED_APPS, _.LANGUAGES, _.LANGUAGE_CODE, _.LOCALE_PATHS, _.LOGGING, _.LOGIN_REDIRECT_URL, _.LOGIN_URL
_.LOGOUT_REDIRECT_URL, _.MIDDLEWARE, _.ROOT_URLCONF, _.SECURE_CONTENT_TYPE_NOSNIFF, _.SECURE_HSTS_SECONDS
_.SECURE_HSTS_INCLUDE_SUBDOMAINS, _.SECURE_PROXY_SSL_HEADER, _.SECURE_SSL_REDIRECT, _.SESSION_ENGINE
_.SILENCED_SYSTEM_CHECKS, _.SPECTACULAR_SETTINGS, _.STATICFILES_DIRS, _.STATIC_ROOT, _.STATIC_URL, _.STORAGES
_.TEMPLATES, _.TIME_ZONE, _.USE_I18N, _.USE_TZ, _.WHITENOISE_AUTOREFRESH, _.WHITENOISE_USE_FINDERS
_.WSGI_APPLICATION, _.X_FRAME_OPTIONS

# Named by dotted path in settings, the URLconf or an app's registry (servers, middleware,
# backends, hooks, the app config, admin.site.register decorators, drf-spectacular's extension).
_.application, _.handler404, _.handler500, _.LeaguesConfig, _.LoginLockout, _.locked_out
_.RequestSizeLimitMiddleware, _.LostConnectionMiddleware, _.EndTokensOnPasswordChange
_.BearerTokenAuthentication, _.BearerTokenScheme, _.ORJSONRenderer, _.ORJSONParser, _.document_errors
_.AccountAdmin, _.HandAdmin, _.HandResultAdmin, _.InviteAdmin, _.LeagueAdmin, _.MeetingAdmin
_.MeetingReopeningAdmin, _.SeasonAdmin

# Django calls these hooks and reads these class attributes (apps, middleware, converters,
# management commands, password validators, auth views, model Meta).
_.verbose_name, _.ready, _.process_view, _.process_exception, _.regex, _.to_url
_.Command, _.add_arguments, _.handle, _.validate, _.password_changed, _.get_help_text
_.form_invalid, _.redirect_authenticated_user, _.template_name, _.email_template_name
_.subject_template_name, _.extra_email_context
_.abstract, _.ordering, _.constraints, _.indexes

# The admin calls these hooks and reads these options; save_model gets ``change`` by keyword.
_.list_display, _.list_filter, _.search_fields, _.inlines, _.readonly_fields, _.can_delete
_.get_readonly_fields, _.has_add_permission, _.has_change_permission, _.has_delete_permission
_.save_model, _.change, _.new_objects

# DRF and drf-spectacular read these attributes and call these hooks; postprocessing hooks
# get ``generator`` and ``public`` by keyword.
_.authentication_classes, _.permission_classes, _.serializer_class, _.list_serializer_class
_.media_type, _.charset, _.default_detail, _.default_code, _.auth_header, _.authenticate_header
_.get_rate, _.get_security_definition, _.target_class, _.put, _.generator, _.public

# Form fields declared on the class, ``clean_<field>`` methods, field options Django reads.
_.expires, _.action, _.confirm_total, _.top_trump_trick, _.forgot_to_pass, _.bidder_team_points
_.eyes_for, _.eyes_range, _.re_tricks, _.dk_re, _.dk_kontra, _.fuchs_re, _.fuchs_kontra
_.karlchen_doppel, _.ramsch_losers, _.ramsch_eyes, _.ramsch_jungfrauen, _.solo_outbid
_.value_other, _.schwarz, _.split_120, _.expected_hand
_.table_count
_.clean_display_name, _.clean_rule_overrides, _.clean_expires_at, _.clean_file, _.clean_reason
_.clean_before, _.clean_date, _.clean_players, _.clean_top_trump_trick
_.field_order, _.help_text, _.default_error_messages

# Model fields set or read only through the ORM, the admin or django-simple-history.
_.joined_at, _.created_by, _.used_by, _.first_name, _._history_user, _._change_reason, _.locked_by
_.was_closed_by, _.revoked_by

# Templates read these fields, properties, methods, tags and filters.
_.anchor, _.heading_html, _.body_html, _.preset_value, _.in_front, _.meeting_fields, _.paid_fields
_.confirm_amount, _.suggested, _.winner_total, _.winner_games_won, _.summary, _.note, _.late
_.is_hand, _.closer_not_kept, _.mu_shown, _.sigma_shown, _.ordinal_shown, _.revokes, _.matches_won
_.pennants, _.best_evening, _.worst_evening, _.announce_rate, _.specials_made_total
_.specials_conceded_total, _.race_points_per_hand, _.bids_by_size, _.bids_made, _.bids_failed
_.colour, _.height, _.zero_y, _.right, _.bottom, _.drawing, _.short_name, _.round_letters, _.evening_url
_.badge, _.when_iso

# Keys of the API's answers: TypedDicts of a replay's result and serializer fields.
_.hand_winners, _.ignored_tricks, _.pot_winner, _.to, _.chooses_restaurant

# scoring.registry imports each game module's GAME by name; the tests walk all_games().
_.GAME, _.all_games

# Used only by tests, or by nothing, in packages other branches are rewriting now: delete
# them there (leagues/stats/), then these lines.
_.compute_statistics, _.compute_ratings, _.ABSAGE_BY_LEVEL, _.ROUNDS

# The cashbox (leagues/cashbox/): DRF's field hook and serializer fields, ``clean_<field>``
# methods, model fields set through the ORM, properties the templates read.
_.to_representation, _.counters, _.recorded_by, _.counted_by, _.balance_cents, _.entries_total
_.clean_counted_on, _.clean_iban, _.verbose_name_plural, _.updated_at
_.euros, _.balance_euros, _.balance_at_count_euros, _.difference_euros

# An evening's settlement (leagues/cashbox/settlement.py): a ``clean_<field>`` method, choices
# and model fields set through the ORM and read by the templates.
_.clean_rate, _.CASH, _.TRANSFER, _.paid_at, _.ticked_by, _.ticked_by_name

# An evening's settlement in the API (leagues/api/settlement.py): serializer fields.
_.net, _.net_cents, _.settles, _.cashbox_cents
# The season report's money (leagues/seasons/report_money.py): what the template reads.
_.fees, _.into_cashbox, _.out_of_cashbox, _.dinner

# The seat draw and the tournament's ranking (scoring/seating.py, scoring/tournament.py): the
# engine's side of several tables and tournaments, called by the tests until the app's pages do.
_.propose_tables, _.table_mates, _.draw_seats, _.games_per_round, _.rank_after_each_round

# Club nights (leagues/models/league.py): choices a form and the stored rows name.
_.PER_GAME, _.PLACINGS

# A season's score in a page (leagues/templatetags/scores.py): the templates call them.
_.season_score, _.bill_score
