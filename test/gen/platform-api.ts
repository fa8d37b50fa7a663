// Written by `npm run openapi` (openapi-typescript, from docs/openapi.json): edits here are overwritten.
export interface paths {
    "/iam/v2beta1/groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List groups */
        get: operations["list_groups"];
        put?: never;
        /** Create a root group */
        post: operations["create_root_groups"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/iam/v2beta1/groups/{uid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a group */
        get: operations["get_groups"];
        put?: never;
        /** Create a group under a group */
        post: operations["create_groups"];
        /** Delete a group */
        delete: operations["delete_groups"];
        options?: never;
        head?: never;
        /** Update a group: the fields the mask names, or those in the body */
        patch: operations["update_groups"];
        trace?: never;
    };
    "/iam/v2beta1/identities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List identities */
        get: operations["list_identities"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/iam/v2beta1/identities/{uid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an identity */
        get: operations["get_identities"];
        put?: never;
        /** Create an identity under a group */
        post: operations["create_identities"];
        /** Delete an identity */
        delete: operations["delete_identities"];
        options?: never;
        head?: never;
        /** Update an identity: the fields the mask names, or those in the body */
        patch: operations["update_identities"];
        trace?: never;
    };
    "/iam/v2beta1/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List roles */
        get: operations["list_roles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/iam/v2beta1/roles/{uid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a role */
        get: operations["get_roles"];
        put?: never;
        /** Create a role under a group */
        post: operations["create_roles"];
        /** Delete a role */
        delete: operations["delete_roles"];
        options?: never;
        head?: never;
        /** Update a role: the fields the mask names, or those in the body */
        patch: operations["update_roles"];
        trace?: never;
    };
    "/iam/v2beta1/roleBindings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List role bindings */
        get: operations["list_roleBindings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/iam/v2beta1/roleBindings/{uid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a role binding */
        get: operations["get_roleBindings"];
        put?: never;
        /** Create a role binding under a group */
        post: operations["create_roleBindings"];
        /** Delete a role binding */
        delete: operations["delete_roleBindings"];
        options?: never;
        head?: never;
        /** Update a role binding: the fields the mask names, or those in the body */
        patch: operations["update_roleBindings"];
        trace?: never;
    };
    "/iam/v2beta1/identityProviders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List identity providers */
        get: operations["list_identityProviders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/iam/v2beta1/identityProviders/{uid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an identity provider */
        get: operations["get_identityProviders"];
        put?: never;
        /** Create an identity provider under a group */
        post: operations["create_identityProviders"];
        /** Delete an identity provider */
        delete: operations["delete_identityProviders"];
        options?: never;
        head?: never;
        /** Update an identity provider: the fields the mask names, or those in the body */
        patch: operations["update_identityProviders"];
        trace?: never;
    };
    "/iam/v2beta1/accountAssociations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List account associations */
        get: operations["list_accountAssociations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/iam/v2beta1/accountAssociations/{uid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an account association */
        get: operations["get_accountAssociations"];
        put?: never;
        /** Create an account association under a group */
        post: operations["create_accountAssociations"];
        /** Delete an account association */
        delete: operations["delete_accountAssociations"];
        options?: never;
        head?: never;
        /** Update an account association: the fields the mask names, or those in the body */
        patch: operations["update_accountAssociations"];
        trace?: never;
    };
    "/iam/v2beta1/groupInvites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List group invites */
        get: operations["list_groupInvites"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/iam/v2beta1/groupInvites/{uid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a group invite */
        get: operations["get_groupInvites"];
        put?: never;
        /** Create a group invite under a group */
        post: operations["create_groupInvites"];
        /** Delete a group invite */
        delete: operations["delete_groupInvites"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/registry/v2beta1/repos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List repos */
        get: operations["list_repos"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/registry/v2beta1/repos/{uid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a repo */
        get: operations["get_repos"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/registry/v2beta1/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List tags */
        get: operations["list_tags"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/registry/v2beta1/tags/{uid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a tag */
        get: operations["get_tags"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/vulnerabilities/v2beta1/advisories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List advisories */
        get: operations["list_advisories"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/vulnerabilities/v2beta1/advisories/{uid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an advisory */
        get: operations["get_advisories"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sts/exchange": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Exchange an identity token for a platform token
         * @description exchanges the bearer (an identity token) for a platform token; an `aud` naming this proxy becomes the v1 audience
         */
        get: operations["sts_exchange"];
        put?: never;
        /**
         * Exchange an identity token for a platform token (a form)
         * @description exchanges the bearer (an identity token) for a platform token; an `aud` naming this proxy becomes the v1 audience
         */
        post: operations["sts_exchange_form"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        "chainguard.platform.iam.v2beta1.AccountAssociation": {
            readonly uid?: string;
            name?: string;
            description?: string;
            amazon?: components["schemas"]["chainguard.platform.iam.v2beta1.AccountAssociation.Amazon"];
            google?: components["schemas"]["chainguard.platform.iam.v2beta1.AccountAssociation.Google"];
            chainguard?: components["schemas"]["chainguard.platform.iam.v2beta1.AccountAssociation.Chainguard"];
            azure?: components["schemas"]["chainguard.platform.iam.v2beta1.AccountAssociation.Azure"];
            /** Format: date-time */
            readonly createTime?: string;
            /** Format: date-time */
            readonly updateTime?: string;
            github?: components["schemas"]["chainguard.platform.iam.v2beta1.AccountAssociation.GitHub"];
        };
        "chainguard.platform.iam.v2beta1.AccountAssociation.Amazon": {
            account?: string;
        };
        "chainguard.platform.iam.v2beta1.AccountAssociation.Azure": {
            tenantId?: string;
            clientIds?: {
                [key: string]: string;
            };
        };
        "chainguard.platform.iam.v2beta1.AccountAssociation.Chainguard": {
            serviceBindings?: {
                [key: string]: string;
            };
        };
        "chainguard.platform.iam.v2beta1.AccountAssociation.GitHub": {
            appInstallations?: {
                [key: string]: components["schemas"]["chainguard.platform.iam.v2beta1.AccountAssociation.GitHubAppInstallations"];
            };
        };
        "chainguard.platform.iam.v2beta1.AccountAssociation.GitHubAppInstallations": {
            installations?: components["schemas"]["chainguard.platform.iam.v2beta1.AccountAssociation.GitHubInstallation"][];
        };
        "chainguard.platform.iam.v2beta1.AccountAssociation.GitHubInstallation": {
            /** Format: int64 */
            installationId?: string;
            name?: string;
        };
        "chainguard.platform.iam.v2beta1.AccountAssociation.Google": {
            projectId?: string;
            projectNumber?: string;
        };
        "chainguard.platform.iam.v2beta1.Group": {
            readonly uid?: string;
            name?: string;
            description?: string;
            readonly resourceLimits?: {
                [key: string]: number;
            };
            verified?: boolean;
            /** Format: date-time */
            readonly createTime?: string;
            /** Format: date-time */
            readonly updateTime?: string;
            /** @enum {string} */
            kind?: "ORG_KIND_UNSPECIFIED" | "ORG_KIND_STARTER" | "ORG_KIND_CUSTOMER" | "ORG_KIND_DEV" | "ORG_KIND_INFRA" | "ORG_KIND_AWS_MARKETPLACE";
            /** @enum {string} */
            readonly status?: "ORG_STATUS_UNSPECIFIED" | "ORG_STATUS_INITIALIZING" | "ORG_STATUS_READY" | "ORG_STATUS_SUSPENDED";
        };
        "chainguard.platform.iam.v2beta1.GroupInvite": {
            readonly uid?: string;
            roleUid?: string;
            email?: string;
            ttl?: string;
            /** Format: date-time */
            readonly expirationTime?: string;
            singleUse?: boolean;
            readonly code?: string;
            readonly keyId?: string;
            /** Format: date-time */
            readonly createTime?: string;
            readonly role?: {
                uid?: unknown;
                capabilities?: unknown;
            };
        };
        "chainguard.platform.iam.v2beta1.Identity": {
            readonly uid?: string;
            name?: string;
            description?: string;
            readonly email?: string;
            readonly emailUnverified?: string;
            company?: string;
            /** Format: date-time */
            readonly lastSeenTime?: string;
            /** Format: date-time */
            readonly createTime?: string;
            /** Format: date-time */
            readonly updateTime?: string;
            claimMatch?: components["schemas"]["chainguard.platform.iam.v2beta1.Identity.ClaimMatch"];
            staticKeys?: components["schemas"]["chainguard.platform.iam.v2beta1.Identity.StaticKeys"];
            awsIdentity?: components["schemas"]["chainguard.platform.iam.v2beta1.Identity.AWSIdentity"];
            /** @enum {string} */
            servicePrincipal?: "SERVICE_PRINCIPAL_UNSPECIFIED" | "SERVICE_PRINCIPAL_COSIGNED" | "SERVICE_PRINCIPAL_INGESTER" | "SERVICE_PRINCIPAL_CATALOG_SYNCER" | "SERVICE_PRINCIPAL_APKO_BUILDER" | "SERVICE_PRINCIPAL_ENTITLEMENT_SYNCER" | "SERVICE_PRINCIPAL_TENANT_SCANNER" | "SERVICE_PRINCIPAL_SEDIMENTOLOGY";
        };
        "chainguard.platform.iam.v2beta1.Identity.AWSIdentity": {
            awsAccount?: string;
            arn?: string;
            arnPattern?: string;
            userId?: string;
            userIdPattern?: string;
        };
        "chainguard.platform.iam.v2beta1.Identity.ClaimMatch": {
            issuer?: string;
            issuerPattern?: string;
            subject?: string;
            subjectPattern?: string;
            audience?: string;
            audiencePattern?: string;
            claims?: {
                [key: string]: string;
            };
            claimPatterns?: {
                [key: string]: string;
            };
        };
        "chainguard.platform.iam.v2beta1.Identity.StaticKeys": {
            issuer?: string;
            subject?: string;
            issuerKeys?: string;
            /** Format: date-time */
            expirationTime?: string;
            audiences?: unknown[];
        };
        "chainguard.platform.iam.v2beta1.IdentityProvider": {
            readonly uid?: string;
            name?: string;
            description?: string;
            /** Format: date-time */
            readonly createTime?: string;
            /** Format: date-time */
            readonly updateTime?: string;
            defaultRole?: string;
            oidc?: components["schemas"]["chainguard.platform.iam.v2beta1.IdentityProvider.OIDC"];
            readonly scim?: Record<string, never>;
        };
        "chainguard.platform.iam.v2beta1.IdentityProvider.OIDC": {
            issuer?: string;
            clientId?: string;
            clientSecret?: string;
            additionalScopes?: string[];
            groupsClaim?: string;
            /** @enum {string} */
            correlationRule?: "CORRELATION_RULE_UNSPECIFIED" | "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID" | "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID";
            pkceEnabled?: boolean;
        };
        "chainguard.platform.iam.v2beta1.ListAccountAssociationsResponse": {
            accountAssociations?: components["schemas"]["chainguard.platform.iam.v2beta1.AccountAssociation"][];
            nextPageToken?: string;
            /** Format: int64 */
            totalCount?: string;
            /** Format: int32 */
            skipped?: number;
        };
        "chainguard.platform.iam.v2beta1.ListGroupInvitesResponse": {
            groupInvites?: components["schemas"]["chainguard.platform.iam.v2beta1.GroupInvite"][];
            nextPageToken?: string;
            /** Format: int64 */
            totalCount?: string;
            /** Format: int32 */
            skipped?: number;
        };
        "chainguard.platform.iam.v2beta1.ListGroupsResponse": {
            groups?: components["schemas"]["chainguard.platform.iam.v2beta1.Group"][];
            nextPageToken?: string;
            /** Format: int64 */
            totalCount?: string;
            /** Format: int32 */
            skipped?: number;
        };
        "chainguard.platform.iam.v2beta1.ListIdentitiesResponse": {
            identities?: components["schemas"]["chainguard.platform.iam.v2beta1.Identity"][];
            nextPageToken?: string;
            /** Format: int64 */
            totalCount?: string;
            /** Format: int32 */
            skipped?: number;
        };
        "chainguard.platform.iam.v2beta1.ListIdentityProvidersResponse": {
            identityProviders?: components["schemas"]["chainguard.platform.iam.v2beta1.IdentityProvider"][];
            nextPageToken?: string;
            /** Format: int64 */
            totalCount?: string;
            /** Format: int32 */
            skipped?: number;
        };
        "chainguard.platform.iam.v2beta1.ListRoleBindingsResponse": {
            roleBindings?: components["schemas"]["chainguard.platform.iam.v2beta1.RoleBinding"][];
            nextPageToken?: string;
            /** Format: int64 */
            totalCount?: string;
            /** Format: int32 */
            skipped?: number;
        };
        "chainguard.platform.iam.v2beta1.ListRolesResponse": {
            roles?: components["schemas"]["chainguard.platform.iam.v2beta1.Role"][];
            nextPageToken?: string;
            /** Format: int64 */
            totalCount?: string;
            /** Format: int32 */
            skipped?: number;
        };
        "chainguard.platform.iam.v2beta1.Role": {
            readonly uid?: string;
            name?: string;
            description?: string;
            capabilities?: ("CAP_IAM_GROUPS_CREATE" | "CAP_IAM_GROUPS_UPDATE" | "CAP_IAM_GROUPS_LIST" | "CAP_IAM_GROUPS_DELETE" | "CAP_IAM_GROUP_INVITES_CREATE" | "CAP_IAM_GROUP_INVITES_LIST" | "CAP_IAM_GROUP_INVITES_DELETE" | "CAP_IAM_ROLES_CREATE" | "CAP_IAM_ROLES_UPDATE" | "CAP_IAM_ROLES_LIST" | "CAP_IAM_ROLES_DELETE" | "CAP_IAM_ROLE_BINDINGS_CREATE" | "CAP_IAM_ROLE_BINDINGS_UPDATE" | "CAP_IAM_ROLE_BINDINGS_LIST" | "CAP_IAM_ROLE_BINDINGS_DELETE" | "CAP_TENANT_CLUSTERS_CREATE" | "CAP_TENANT_CLUSTERS_UPDATE" | "CAP_TENANT_CLUSTERS_LIST" | "CAP_TENANT_CLUSTERS_DELETE" | "CAP_TENANT_CLUSTERS_DISCOVER" | "CAP_TENANT_RECORDS_LIST" | "CAP_TENANT_RECORD_CONTEXTS_LIST" | "CAP_TENANT_RECORD_SIGNATURES_LIST" | "CAP_TENANT_RECORD_POLICY_RESULTS_LIST" | "CAP_TENANT_RISKS_LIST" | "CAP_TENANT_SBOMS_LIST" | "CAP_TENANT_VULN_REPORTS_LIST" | "CAP_TENANT_ATTESTATIONS_LIST" | "CAP_IAM_ACCOUNT_ASSOCIATIONS_CREATE" | "CAP_IAM_ACCOUNT_ASSOCIATIONS_UPDATE" | "CAP_IAM_ACCOUNT_ASSOCIATIONS_LIST" | "CAP_IAM_ACCOUNT_ASSOCIATIONS_DELETE" | "CAP_IAM_POLICY_CREATE" | "CAP_IAM_POLICY_UPDATE" | "CAP_IAM_POLICY_LIST" | "CAP_IAM_POLICY_DELETE" | "CAP_IAM_IDENTITY_CREATE" | "CAP_IAM_IDENTITY_UPDATE" | "CAP_IAM_IDENTITY_LIST" | "CAP_IAM_IDENTITY_DELETE" | "CAP_TENANT_NODES_LIST" | "CAP_TENANT_NAMESPACES_LIST" | "CAP_TENANT_WORKLOADS_LIST" | "CAP_IAM_IDENTITY_PROVIDERS_CREATE" | "CAP_IAM_IDENTITY_PROVIDERS_UPDATE" | "CAP_IAM_IDENTITY_PROVIDERS_LIST" | "CAP_IAM_IDENTITY_PROVIDERS_DELETE" | "CAP_EVENTS_SUBSCRIPTION_CREATE" | "CAP_EVENTS_SUBSCRIPTION_UPDATE" | "CAP_EVENTS_SUBSCRIPTION_LIST" | "CAP_EVENTS_SUBSCRIPTION_DELETE" | "CAP_REPO_CREATE" | "CAP_REPO_UPDATE" | "CAP_REPO_LIST" | "CAP_REPO_DELETE" | "CAP_MANIFEST_CREATE" | "CAP_MANIFEST_UPDATE" | "CAP_MANIFEST_LIST" | "CAP_MANIFEST_DELETE" | "CAP_TAG_CREATE" | "CAP_TAG_UPDATE" | "CAP_TAG_LIST" | "CAP_TAG_DELETE" | "CAP_MANIFEST_METADATA_LIST" | "CAP_APK_CREATE" | "CAP_APK_UPDATE" | "CAP_APK_LIST" | "CAP_APK_DELETE" | "CAP_VERSION_LIST" | "CAP_VULN_REPORT_CREATE" | "CAP_VULN_REPORT_LIST" | "CAP_VULN_CREATE" | "CAP_BUILD_REPORT_LIST" | "CAP_LIBRARIES_ENTITLEMENTS_CREATE" | "CAP_LIBRARIES_ENTITLEMENTS_LIST" | "CAP_LIBRARIES_ENTITLEMENTS_DELETE" | "CAP_LIBRARIES_ARTIFACTS_LIST" | "CAP_LIBRARIES_PYTHON_LIST" | "CAP_LIBRARIES_JAVA_LIST" | "CAP_LIBRARIES_JAVASCRIPT_LIST" | "CAP_REGISTRY_ENTITLEMENTS_LIST" | "CAP_SIGSTORE_CREATE" | "CAP_SIGSTORE_UPDATE" | "CAP_SIGSTORE_LIST" | "CAP_SIGSTORE_DELETE" | "CAP_SIGSTORE_CERTIFICATE_CREATE" | "CAP_ADVISORIES_CREATE" | "CAP_ADVISORIES_UPDATE" | "CAP_ADVISORIES_LIST" | "CAP_ADVISORIES_DELETE" | "CAP_ADVISORIES_APPROVE" | "CAP_GULFSTREAM" | "CAP_IAM_SCIM_MANAGE" | "CAP_INTERNAL")[];
            /** Format: date-time */
            readonly createTime?: string;
            /** Format: date-time */
            readonly updateTime?: string;
        };
        "chainguard.platform.iam.v2beta1.RoleBinding": {
            readonly uid?: string;
            readonly identity?: components["schemas"]["chainguard.platform.iam.v2beta1.RoleBindingIdentity"];
            readonly group?: components["schemas"]["chainguard.platform.iam.v2beta1.RoleBindingGroup"];
            readonly role?: components["schemas"]["chainguard.platform.iam.v2beta1.RoleBindingRole"];
            /** Format: date-time */
            readonly createTime?: string;
            identityUid?: string;
            roleUid?: string;
            email?: unknown;
            emailUnverified?: unknown;
        };
        "chainguard.platform.iam.v2beta1.RoleBindingGroup": {
            uid?: string;
            name?: string;
            description?: string;
        };
        "chainguard.platform.iam.v2beta1.RoleBindingIdentity": {
            uid?: string;
            name?: string;
            description?: string;
            subject?: string;
            issuer?: string;
            email?: string;
        };
        "chainguard.platform.iam.v2beta1.RoleBindingRole": {
            uid?: string;
            name?: string;
            description?: string;
        };
        "chainguard.platform.registry.v2beta1.CustomOverlay": {
            contents?: components["schemas"]["chainguard.platform.registry.v2beta1.CustomOverlay.ImageContents"];
            environment?: {
                [key: string]: string;
            };
            annotations?: {
                [key: string]: string;
            };
            accounts?: components["schemas"]["chainguard.platform.registry.v2beta1.CustomOverlay.Accounts"];
            certificates?: components["schemas"]["chainguard.platform.registry.v2beta1.CustomOverlay.Certificates"];
        };
        "chainguard.platform.registry.v2beta1.CustomOverlay.Accounts": {
            runAs?: string;
            users?: components["schemas"]["chainguard.platform.registry.v2beta1.CustomOverlay.Accounts.User"][];
            groups?: components["schemas"]["chainguard.platform.registry.v2beta1.CustomOverlay.Accounts.Group"][];
        };
        "chainguard.platform.registry.v2beta1.CustomOverlay.Accounts.Group": {
            groupname?: string;
            /** Format: int32 */
            gid?: number;
            members?: string[];
        };
        "chainguard.platform.registry.v2beta1.CustomOverlay.Accounts.User": {
            username?: string;
            /** Format: int32 */
            uid?: number;
            /** Format: int32 */
            gid?: number;
            groupName?: string;
            shell?: string;
            homeDir?: string;
        };
        "chainguard.platform.registry.v2beta1.CustomOverlay.Certificates": {
            additional?: components["schemas"]["chainguard.platform.registry.v2beta1.CustomOverlay.Certificates.AdditionalEntry"][];
            providers?: string[];
        };
        "chainguard.platform.registry.v2beta1.CustomOverlay.Certificates.AdditionalEntry": {
            name?: string;
            content?: string;
        };
        "chainguard.platform.registry.v2beta1.CustomOverlay.ImageContents": {
            packages?: string[];
        };
        "chainguard.platform.registry.v2beta1.ListReposResponse": {
            repos?: components["schemas"]["chainguard.platform.registry.v2beta1.Repo"][];
            nextPageToken?: string;
            /** Format: int64 */
            totalCount?: string;
            /** Format: int32 */
            skipped?: number;
        };
        "chainguard.platform.registry.v2beta1.ListTagsResponse": {
            tags?: components["schemas"]["chainguard.platform.registry.v2beta1.Tag"][];
            nextPageToken?: string;
            /** Format: int64 */
            totalCount?: string;
            /** Format: int32 */
            skipped?: number;
        };
        "chainguard.platform.registry.v2beta1.Repo": {
            readonly uid?: string;
            name?: string;
            description?: string;
            /** @enum {string} */
            catalogTier?: "CATALOG_TIER_UNSPECIFIED" | "CATALOG_TIER_APPLICATION" | "CATALOG_TIER_BASE" | "CATALOG_TIER_FIPS" | "CATALOG_TIER_AI" | "CATALOG_TIER_DEVTOOLS";
            bundles?: string[];
            readme?: string;
            aliases?: string[];
            activeTags?: string[];
            sync_config?: components["schemas"]["chainguard.platform.registry.v2beta1.SyncConfig"];
            customOverlay?: components["schemas"]["chainguard.platform.registry.v2beta1.CustomOverlay"];
            /** Format: date-time */
            readonly createTime?: string;
            /** Format: date-time */
            readonly updateTime?: string;
        };
        "chainguard.platform.registry.v2beta1.SyncConfig": {
            source?: string;
            uniqueTags?: boolean;
            /** Format: date-time */
            expirationTime?: string;
            google?: string;
            amazon?: string;
            azure?: string;
            apkoOverlay?: string;
            gracePeriod?: boolean;
            syncApks?: unknown;
        };
        "chainguard.platform.registry.v2beta1.Tag": {
            readonly uid?: string;
            name?: string;
            digest?: string;
            /** Format: date-time */
            readonly updateTime?: string;
            deprecated?: boolean;
            bundles?: string[];
        };
        "chainguard.platform.vulnerabilities.v2beta1.Advisory": {
            readonly uid?: string;
            advisoryId?: string;
            /** Format: date-time */
            readonly createTime?: string;
            /** Format: date-time */
            readonly updateTime?: string;
            /** Format: date-time */
            readonly deleteTime?: string;
            author?: string;
            artifactName?: string;
            artifactType?: string;
            artifactArchitecture?: string;
            componentName?: string;
            componentLocation?: string;
            componentType?: string;
            aliases?: string[];
            events?: components["schemas"]["chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent"][];
            legacyAdvisoryId?: string;
        };
        "chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent": {
            uid?: string;
            /** Format: date-time */
            createTime?: string;
            findings?: string;
            author?: string;
            reviewer?: string;
            /** @enum {string} */
            reviewState?: "REVIEW_STATE_UNSPECIFIED" | "REVIEW_STATE_PENDING" | "REVIEW_STATE_APPROVED" | "REVIEW_STATE_REQUEST_CHANGES" | "REVIEW_STATE_REJECTED";
            issue?: string;
            detection?: components["schemas"]["chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.Detection"];
            fixed?: components["schemas"]["chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.Fixed"];
            falsePositiveDetermination?: components["schemas"]["chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.FalsePositiveDetermination"];
            analysisNotPlanned?: components["schemas"]["chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.AnalysisNotPlanned"];
            fixNotPlanned?: components["schemas"]["chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.FixNotPlanned"];
            pendingUpstreamFix?: components["schemas"]["chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.PendingUpstreamFix"];
            truePositiveDetermination?: components["schemas"]["chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.TruePositiveDetermination"];
            patched?: components["schemas"]["chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.Patched"];
        };
        "chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.AnalysisNotPlanned": {
            note?: string;
        };
        "chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.Detection": {
            nvdapi?: components["schemas"]["chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.Detection.NVDAPI"];
            manual?: components["schemas"]["chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.Detection.Manual"];
            scanv1?: components["schemas"]["chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.Detection.ScanV1"];
        };
        "chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.Detection.Manual": Record<string, never>;
        "chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.Detection.NVDAPI": {
            cpeSearched?: string;
            cpeFound?: string;
        };
        "chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.Detection.ScanV1": {
            scanner?: string;
            subpackage?: string;
            componentId?: string;
            component?: string;
            componentVersion?: string;
            componentType?: string;
            componentLocation?: string;
        };
        "chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.FalsePositiveDetermination": {
            /** @enum {string} */
            type?: "TYPE_UNSPECIFIED" | "TYPE_VULNERABILITY_RECORD_ANALYSIS_CONTESTED" | "TYPE_COMPONENT_VULNERABILITY_MISMATCH" | "TYPE_VULNERABLE_CODE_VERSION_NOT_USED" | "TYPE_VULNERABLE_CODE_NOT_INCLUDED_IN_PACKAGE" | "TYPE_VULNERABLE_CODE_NOT_IN_EXECUTION_PATH" | "TYPE_VULNERABLE_CODE_CANNOT_BE_CONTROLLED_BY_ADVERSARY" | "TYPE_INLINE_MITIGATIONS_EXIST";
            note?: string;
        };
        "chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.Fixed": {
            fixedVersion?: string;
            note?: string;
        };
        "chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.FixNotPlanned": {
            note?: string;
        };
        "chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.Patched": {
            patchedVersions?: string[];
            note?: string;
        };
        "chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.PendingUpstreamFix": {
            note?: string;
        };
        "chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.TruePositiveDetermination": {
            note?: string;
        };
        "chainguard.platform.vulnerabilities.v2beta1.ListAdvisoriesResponse": {
            advisories?: components["schemas"]["chainguard.platform.vulnerabilities.v2beta1.Advisory"][];
            nextPageToken?: string;
            /** Format: int64 */
            totalCount?: string;
            /** Format: int32 */
            skipped?: number;
        };
        /** @description An AIP-193 error: the gRPC code, a message, and typed details (ErrorInfo, BadRequest, PreconditionFailure) */
        "google.rpc.Status": {
            code: number;
            message: string;
            details: {
                "@type": string;
            }[];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    list_groups: {
        parameters: {
            query?: {
                /** @description items per page (0: 50; a larger one is served as 200) */
                page_size?: number;
                /** @description the nextPageToken of the page before */
                page_token?: string;
                /** @description items to skip before the page (echoed as `skipped`) */
                skip?: number;
                /** @description comma-separated fields (camel or snake case), each optionally followed by ` asc` or ` desc`: uid, name, createTime, updateTime */
                order_by?: string;
                /** @description a group uid */
                "uidp.descendants_of"?: string;
                /** @description a group uid */
                "uidp.children_of"?: string;
                /** @description uids of the resources to list */
                "uidp.ids"?: string[];
                name?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.ListGroupsResponse"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    create_root_groups: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": WithRequired<components["schemas"]["chainguard.platform.iam.v2beta1.Group"], "name">;
            };
        };
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.Group"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description ALREADY_EXISTS, or ABORTED: another write of the resource is running, or the first request with this Idempotency-Key still is; retry */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    get_groups: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the resource's uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.Group"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    create_groups: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the parent group’s (the new resource is made under it) uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": WithRequired<components["schemas"]["chainguard.platform.iam.v2beta1.Group"], "name">;
            };
        };
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.Group"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description ALREADY_EXISTS, or ABORTED: another write of the resource is running, or the first request with this Idempotency-Key still is; retry */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    delete_groups: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the resource's uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description ALREADY_EXISTS, or ABORTED: another write of the resource is running, or the first request with this Idempotency-Key still is; retry */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    update_groups: {
        parameters: {
            query?: {
                /** @description the fields to change, comma-separated (camel or snake, dotted; * for all); none: the fields in the body */
                update_mask?: string;
            };
            header?: never;
            path: {
                /** @description the resource's uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.Group"];
            };
        };
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.Group"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description ALREADY_EXISTS, or ABORTED: another write of the resource is running, or the first request with this Idempotency-Key still is; retry */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    list_identities: {
        parameters: {
            query?: {
                /** @description items per page (0: 50; a larger one is served as 200) */
                page_size?: number;
                /** @description the nextPageToken of the page before */
                page_token?: string;
                /** @description items to skip before the page (echoed as `skipped`) */
                skip?: number;
                /** @description comma-separated fields (camel or snake case), each optionally followed by ` asc` or ` desc`: uid, name, createTime, updateTime, lastSeenTime */
                order_by?: string;
                /** @description a group uid */
                "uidp.descendants_of"?: string;
                /** @description a group uid */
                "uidp.children_of"?: string;
                /** @description uids of the resources to list */
                "uidp.ids"?: string[];
                name?: string;
                relationship_type?: "RELATIONSHIP_TYPE_UNSPECIFIED" | "RELATIONSHIP_TYPE_CLAIM_MATCH" | "RELATIONSHIP_TYPE_STATIC" | "RELATIONSHIP_TYPE_AWS_IDENTITY" | "RELATIONSHIP_TYPE_SERVICE_PRINCIPAL";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.ListIdentitiesResponse"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    get_identities: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the resource's uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.Identity"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    create_identities: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the parent group’s (the new resource is made under it) uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": WithRequired<components["schemas"]["chainguard.platform.iam.v2beta1.Identity"], "name">;
            };
        };
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.Identity"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description ALREADY_EXISTS, or ABORTED: another write of the resource is running, or the first request with this Idempotency-Key still is; retry */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    delete_identities: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the resource's uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description ALREADY_EXISTS, or ABORTED: another write of the resource is running, or the first request with this Idempotency-Key still is; retry */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    update_identities: {
        parameters: {
            query?: {
                /** @description the fields to change, comma-separated (camel or snake, dotted; * for all); none: the fields in the body */
                update_mask?: string;
            };
            header?: never;
            path: {
                /** @description the resource's uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.Identity"];
            };
        };
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.Identity"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description ALREADY_EXISTS, or ABORTED: another write of the resource is running, or the first request with this Idempotency-Key still is; retry */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    list_roles: {
        parameters: {
            query?: {
                /** @description items per page (0: 50; a larger one is served as 200) */
                page_size?: number;
                /** @description the nextPageToken of the page before */
                page_token?: string;
                /** @description items to skip before the page (echoed as `skipped`) */
                skip?: number;
                /** @description comma-separated fields (camel or snake case), each optionally followed by ` asc` or ` desc`: uid, name, createTime, updateTime */
                order_by?: string;
                /** @description a group uid */
                "uidp.descendants_of"?: string;
                /** @description a group uid */
                "uidp.children_of"?: string;
                /** @description uids of the resources to list */
                "uidp.ids"?: string[];
                name?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.ListRolesResponse"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    get_roles: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the resource's uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.Role"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    create_roles: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the parent group’s (the new resource is made under it) uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": WithRequired<components["schemas"]["chainguard.platform.iam.v2beta1.Role"], "name" | "capabilities">;
            };
        };
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.Role"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description ALREADY_EXISTS, or ABORTED: another write of the resource is running, or the first request with this Idempotency-Key still is; retry */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    delete_roles: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the resource's uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description ALREADY_EXISTS, or ABORTED: another write of the resource is running, or the first request with this Idempotency-Key still is; retry */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    update_roles: {
        parameters: {
            query?: {
                /** @description the fields to change, comma-separated (camel or snake, dotted; * for all); none: the fields in the body */
                update_mask?: string;
            };
            header?: never;
            path: {
                /** @description the resource's uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.Role"];
            };
        };
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.Role"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description ALREADY_EXISTS, or ABORTED: another write of the resource is running, or the first request with this Idempotency-Key still is; retry */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    list_roleBindings: {
        parameters: {
            query?: {
                /** @description items per page (0: 50; a larger one is served as 200) */
                page_size?: number;
                /** @description the nextPageToken of the page before */
                page_token?: string;
                /** @description items to skip before the page (echoed as `skipped`) */
                skip?: number;
                /** @description comma-separated fields (camel or snake case), each optionally followed by ` asc` or ` desc`: uid, createTime */
                order_by?: string;
                /** @description a group uid */
                "uidp.descendants_of"?: string;
                /** @description a group uid */
                "uidp.children_of"?: string;
                /** @description uids of the resources to list */
                "uidp.ids"?: string[];
                group?: string;
                identity?: string;
                role?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.ListRoleBindingsResponse"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    get_roleBindings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the resource's uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.RoleBinding"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    create_roleBindings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the parent group’s (the new resource is made under it) uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": WithRequired<components["schemas"]["chainguard.platform.iam.v2beta1.RoleBinding"], "identityUid" | "roleUid">;
            };
        };
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.RoleBinding"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description ALREADY_EXISTS, or ABORTED: another write of the resource is running, or the first request with this Idempotency-Key still is; retry */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    delete_roleBindings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the resource's uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description ALREADY_EXISTS, or ABORTED: another write of the resource is running, or the first request with this Idempotency-Key still is; retry */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    update_roleBindings: {
        parameters: {
            query?: {
                /** @description the fields to change, comma-separated (camel or snake, dotted; * for all); none: the fields in the body */
                update_mask?: string;
            };
            header?: never;
            path: {
                /** @description the resource's uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.RoleBinding"];
            };
        };
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.RoleBinding"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description ALREADY_EXISTS, or ABORTED: another write of the resource is running, or the first request with this Idempotency-Key still is; retry */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    list_identityProviders: {
        parameters: {
            query?: {
                /** @description items per page (0: 50; a larger one is served as 200) */
                page_size?: number;
                /** @description the nextPageToken of the page before */
                page_token?: string;
                /** @description items to skip before the page (echoed as `skipped`) */
                skip?: number;
                /** @description comma-separated fields (camel or snake case), each optionally followed by ` asc` or ` desc`: uid, name, createTime, updateTime */
                order_by?: string;
                /** @description a group uid */
                "uidp.descendants_of"?: string;
                /** @description a group uid */
                "uidp.children_of"?: string;
                /** @description uids of the resources to list */
                "uidp.ids"?: string[];
                name?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.ListIdentityProvidersResponse"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    get_identityProviders: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the resource's uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.IdentityProvider"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    create_identityProviders: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the parent group’s (the new resource is made under it) uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    oidc: WithRequired<components["schemas"]["chainguard.platform.iam.v2beta1.IdentityProvider.OIDC"], "issuer" | "clientId">;
                } & WithRequired<components["schemas"]["chainguard.platform.iam.v2beta1.IdentityProvider"], "name" | "defaultRole" | "oidc">;
            };
        };
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.IdentityProvider"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description ALREADY_EXISTS, or ABORTED: another write of the resource is running, or the first request with this Idempotency-Key still is; retry */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    delete_identityProviders: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the resource's uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description ALREADY_EXISTS, or ABORTED: another write of the resource is running, or the first request with this Idempotency-Key still is; retry */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    update_identityProviders: {
        parameters: {
            query?: {
                /** @description the fields to change, comma-separated (camel or snake, dotted; * for all); none: the fields in the body */
                update_mask?: string;
            };
            header?: never;
            path: {
                /** @description the resource's uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.IdentityProvider"];
            };
        };
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.IdentityProvider"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description ALREADY_EXISTS, or ABORTED: another write of the resource is running, or the first request with this Idempotency-Key still is; retry */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    list_accountAssociations: {
        parameters: {
            query?: {
                /** @description items per page (0: 50; a larger one is served as 200) */
                page_size?: number;
                /** @description the nextPageToken of the page before */
                page_token?: string;
                /** @description items to skip before the page (echoed as `skipped`) */
                skip?: number;
                /** @description comma-separated fields (camel or snake case), each optionally followed by ` asc` or ` desc`: uid, name, createTime, updateTime */
                order_by?: string;
                /** @description a group uid */
                "uidp.descendants_of"?: string;
                /** @description a group uid */
                "uidp.children_of"?: string;
                /** @description uids of the resources to list */
                "uidp.ids"?: string[];
                name?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.ListAccountAssociationsResponse"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    get_accountAssociations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the resource's uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.AccountAssociation"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    create_accountAssociations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the parent group’s (the new resource is made under it) uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": WithRequired<components["schemas"]["chainguard.platform.iam.v2beta1.AccountAssociation"], "name">;
            };
        };
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.AccountAssociation"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description ALREADY_EXISTS, or ABORTED: another write of the resource is running, or the first request with this Idempotency-Key still is; retry */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    delete_accountAssociations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the resource's uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description ALREADY_EXISTS, or ABORTED: another write of the resource is running, or the first request with this Idempotency-Key still is; retry */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    update_accountAssociations: {
        parameters: {
            query?: {
                /** @description the fields to change, comma-separated (camel or snake, dotted; * for all); none: the fields in the body */
                update_mask?: string;
            };
            header?: never;
            path: {
                /** @description the resource's uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.AccountAssociation"];
            };
        };
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.AccountAssociation"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description ALREADY_EXISTS, or ABORTED: another write of the resource is running, or the first request with this Idempotency-Key still is; retry */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    list_groupInvites: {
        parameters: {
            query?: {
                /** @description items per page (0: 50; a larger one is served as 200) */
                page_size?: number;
                /** @description the nextPageToken of the page before */
                page_token?: string;
                /** @description items to skip before the page (echoed as `skipped`) */
                skip?: number;
                /** @description comma-separated fields (camel or snake case), each optionally followed by ` asc` or ` desc`: uid, createTime, expirationTime, email */
                order_by?: string;
                /** @description a group uid */
                "uidp.descendants_of"?: string;
                /** @description a group uid */
                "uidp.children_of"?: string;
                /** @description uids of the resources to list */
                "uidp.ids"?: string[];
                key_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.ListGroupInvitesResponse"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    get_groupInvites: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the resource's uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.GroupInvite"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    create_groupInvites: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the parent group’s (the new resource is made under it) uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": WithRequired<components["schemas"]["chainguard.platform.iam.v2beta1.GroupInvite"], "roleUid" | "ttl">;
            };
        };
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.iam.v2beta1.GroupInvite"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description ALREADY_EXISTS, or ABORTED: another write of the resource is running, or the first request with this Idempotency-Key still is; retry */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    delete_groupInvites: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the resource's uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description ALREADY_EXISTS, or ABORTED: another write of the resource is running, or the first request with this Idempotency-Key still is; retry */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    list_repos: {
        parameters: {
            query?: {
                /** @description items per page (0: 50; a larger one is served as 200) */
                page_size?: number;
                /** @description the nextPageToken of the page before */
                page_token?: string;
                /** @description items to skip before the page (echoed as `skipped`) */
                skip?: number;
                /** @description comma-separated fields (camel or snake case), each optionally followed by ` asc` or ` desc`: uid, name, createTime, updateTime */
                order_by?: string;
                /** @description a group uid */
                "uidp.descendants_of"?: string;
                /** @description a group uid */
                "uidp.children_of"?: string;
                /** @description uids of the resources to list */
                "uidp.ids"?: string[];
                name?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.registry.v2beta1.ListReposResponse"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    get_repos: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the resource's uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.registry.v2beta1.Repo"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    list_tags: {
        parameters: {
            query?: {
                /** @description items per page (0: 50; a larger one is served as 200) */
                page_size?: number;
                /** @description the nextPageToken of the page before */
                page_token?: string;
                /** @description items to skip before the page (echoed as `skipped`) */
                skip?: number;
                /** @description comma-separated fields (camel or snake case), each optionally followed by ` asc` or ` desc`: uid, name, updateTime */
                order_by?: string;
                /** @description a group uid */
                "uidp.descendants_of"?: string;
                /** @description a group uid */
                "uidp.children_of"?: string;
                /** @description uids of the resources to list */
                "uidp.ids"?: string[];
                name?: string;
                digest?: string;
                updated_since?: string;
                include_referrers?: boolean;
                include_dates?: boolean;
                include_epochs?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.registry.v2beta1.ListTagsResponse"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    get_tags: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the resource's uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.registry.v2beta1.Tag"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    list_advisories: {
        parameters: {
            query?: {
                /** @description items per page (0: 50; a larger one is served as 200) */
                page_size?: number;
                /** @description the nextPageToken of the page before */
                page_token?: string;
                /** @description items to skip before the page (echoed as `skipped`) */
                skip?: number;
                /** @description comma-separated fields (camel or snake case), each optionally followed by ` asc` or ` desc`: uid, createTime, updateTime, deleteTime, aliases */
                order_by?: string;
                /** @description a group uid */
                "uidp.descendants_of"?: string;
                /** @description a group uid */
                "uidp.children_of"?: string;
                /** @description uids of the resources to list */
                "uidp.ids"?: string[];
                advisory_ids?: string[];
                legacy_advisory_ids?: string[];
                artifact_names?: string[];
                artifact_types?: string[];
                artifact_architectures?: string[];
                component_names?: string[];
                component_types?: string[];
                component_locations?: string[];
                aliases?: string[];
                event_authors?: string[];
                exclude_event_authors?: string[];
                event_reviewers?: string[];
                event_review_states?: string[];
                event_types?: string[];
                latest_event_type?: string;
                query?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.vulnerabilities.v2beta1.ListAdvisoriesResponse"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    get_advisories: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the resource's uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped) */
                uid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["chainguard.platform.vulnerabilities.v2beta1.Advisory"];
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    sts_exchange: {
        parameters: {
            query: {
                /** @description the audience(s) of the token asked for */
                aud: string[];
                scope?: string;
                /** @description the identity (uid) to assume */
                identity?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        token: string;
                    };
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
    sts_exchange_form: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": {
                    aud: string[];
                    scope?: string;
                    identity?: string;
                };
            };
        };
        responses: {
            /** @description the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        token: string;
                    };
                };
            };
            /** @description INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAUTHENTICATED: no token, or one the backend does not take */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description PERMISSION_DENIED: the caller may not do this here (checked before existence) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the request headers are too large */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description INTERNAL, UNKNOWN or DATA_LOSS, as the backend said */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
            /** @description DEADLINE_EXCEEDED: a backend did not answer in time */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["google.rpc.Status"];
                };
            };
        };
    };
}
type WithRequired<T, K extends keyof T> = T & {
    [P in K]-?: T[P];
};
